#include "core/plan_scatter_nd.hpp"

#include <algorithm>
#include <string>

#include "core/buffer_access.hpp"
#include "core/error_macros.hpp"
#include "core/nd_indices.hpp"
#include "core/shape_product.hpp"

namespace tensorbuf::core {
namespace {

bool is_numeric(DataType type) { return type != DataType::kBool; }

// "[2,3]"-style text of dims [begin, end) of `shape`.
std::string dims_text(const Shape& shape, int begin, int end) {
  std::string out = "[";
  for (int i = begin; i < end; ++i) {
    if (i != begin) out += ',';
    out += std::to_string(shape[i]);
  }
  return out + "]";
}

// A torch-style index vector: indices of shape [n] with updates of shape [n] + tensor.shape[1:],
// which is what indices[:, None] (n rows of depth 1) would take. A [n] index is valid (one row of
// depth n), so the hint is only appended to an error raised anyway.
std::string_view one_index_hint(const Shape& tensor_shape, const Shape& indices_shape,
                                const Shape& updates_shape) {
  if (indices_shape.rank() != 1 || updates_shape.rank() != tensor_shape.rank() ||
      updates_shape[0] != indices_shape[0]) {
    return {};
  }
  for (int i = 1; i < tensor_shape.rank(); ++i) {
    if (updates_shape[i] != tensor_shape[i]) return {};
  }
  return "; indices of shape [n] are one index; use indices[:, None] for n rows";
}

}  // namespace

ScatterNdPlan plan_scatter_nd(ScatterOp op, const TensorBuffer& tensor, const TensorBuffer& indices,
                              const TensorBuffer& updates) {
  const std::string_view name = scatter_op_name(op);
  // By reference: a scatter call is planned on every call, and each Shape copy is an
  // allocation.
  const Shape& tensor_shape = BufferAccess::shape(tensor);
  const Shape& indices_shape = BufferAccess::shape(indices);
  const Shape& updates_shape = BufferAccess::shape(updates);

  // Rule 1: dtypes and ranks.
  const DataType dtype = tensor.data_type();
  TENSORBUF_EXPECTS(is_numeric(dtype) || op == ScatterOp::kUpdate, InvalidArgumentError,
                    str_cat(name, ": tensor dtype ", to_string(dtype),
                            " is not supported (numeric dtypes only; bool only for "
                            "tensor_scatter_nd_update)"));
  check_index_dtype(name, indices.data_type());
  TENSORBUF_EXPECTS(updates.data_type() == dtype, InvalidArgumentError,
                    str_cat(name, ": updates dtype ", to_string(updates.data_type()),
                            " does not match tensor dtype ", to_string(dtype)));
  TENSORBUF_EXPECTS(
      tensor_shape.rank() >= 1, InvalidArgumentError,
      str_cat(name, ": tensor must have rank >= 1, got shape ", tensor_shape.to_string()));
  TENSORBUF_EXPECTS(
      indices_shape.rank() >= 1, InvalidArgumentError,
      str_cat(name, ": indices must have rank >= 1, got shape ", indices_shape.to_string()));

  // Rule 2: the depth.
  const int rank = tensor_shape.rank();
  const std::int64_t depth = indices_shape[indices_shape.rank() - 1];
  TENSORBUF_EXPECTS(
      depth >= 1 && depth <= rank, InvalidArgumentError,
      str_cat(name, ": index depth indices.shape[-1] = ", depth,
              " must be between 1 and the tensor rank ", rank, " (indices shape ",
              indices_shape.to_string(), ", tensor shape ", tensor_shape.to_string(), ")",
              one_index_hint(tensor_shape, indices_shape, updates_shape)));
  const int d = static_cast<int>(depth);

  // Rule 3: updates.shape == indices.shape[:-1] + tensor.shape[D:], exactly. Compared in place;
  // the expected shape is built only for the message.
  const std::vector<std::int64_t>& index_batch = indices_shape.dims();
  const std::vector<std::int64_t>& tensor_dims = tensor_shape.dims();
  const std::vector<std::int64_t>& update_dims = updates_shape.dims();
  const std::size_t batch_rank = index_batch.size() - 1;
  const bool updates_match =
      update_dims.size() == batch_rank + tensor_dims.size() - static_cast<std::size_t>(d) &&
      std::equal(index_batch.begin(), index_batch.end() - 1, update_dims.begin()) &&
      std::equal(tensor_dims.begin() + d, tensor_dims.end(), update_dims.begin() + batch_rank);
  if (!updates_match) {
    std::vector<std::int64_t> expected(index_batch.begin(), index_batch.end() - 1);
    expected.insert(expected.end(), tensor_dims.begin() + d, tensor_dims.end());
    const Shape expected_shape(expected);
    throw InvalidArgumentError(str_cat(
        name, ": updates shape ", updates_shape.to_string(),
        " does not match indices.shape[:-1] + tensor.shape[", d,
        ":] = ", dims_text(indices_shape, 0, indices_shape.rank() - 1), " + ",
        dims_text(tensor_shape, d, rank), " = ", expected_shape.to_string(), " (indices shape ",
        indices_shape.to_string(), ", tensor shape ", tensor_shape.to_string(), ")",
        one_index_hint(tensor_shape, indices_shape, updates_shape)));
  }

  ScatterNdPlan plan;
  plan.op = op;
  plan.dtype = dtype;
  plan.index_dtype = indices.data_type();
  plan.tensor_dims = SmallDims(tensor_shape.dims());
  plan.indices_dims = SmallDims(indices_shape.dims());
  plan.depth = d;
  plan.num_elements = tensor_shape.num_elements();
  plan.num_rows = dims_product(indices_shape.dims(), 0, indices_shape.dims().size() - 1);
  plan.slice_size =
      dims_product(tensor_shape.dims(), static_cast<std::size_t>(d), tensor_shape.dims().size());
  plan.num_slices = slice_strides(tensor_shape.dims(), 0, d, plan.slice_strides);
  return plan;
}

const char* scatter_nd_capture_blocker(const ScatterNdPlan& plan) {
  // In place with an input aliasing the tensor runs out of place and copies back on the
  // device (core::run_in_place): nothing reaches the host.
  if (plan.policy == OutOfBoundsPolicy::kError) {
    return "kError reads the first bad row back to the host";
  }
  return nullptr;
}

}  // namespace tensorbuf::core
