#include "core/plan_elements.hpp"

#include <string_view>
#include <vector>

#include "core/axis_indices.hpp"
#include "core/buffer_access.hpp"
#include "core/error_macros.hpp"
#include "core/nd_indices.hpp"
#include "core/shape_product.hpp"
#include "tensorbuf/spellings.hpp"

namespace tensorbuf::core {
namespace {

// The rules gather_elements and scatter_elements share, and the merged layout.
ElementsLayout plan_layout(std::string_view op, std::string_view what, const TensorBuffer& tensor,
                           const TensorBuffer& indices, int requested_axis) {
  const Shape& tshape = BufferAccess::shape(tensor);
  const Shape& ishape = BufferAccess::shape(indices);
  check_index_dtype(op, indices.data_type());
  TENSORBUF_EXPECTS(tshape.rank() >= 1, InvalidArgumentError,
                    str_cat(op, ": ", what, " must have rank >= 1, got a scalar"));
  const int axis = normalize_axis(op, requested_axis, what, tshape);
  TENSORBUF_EXPECTS(ishape.rank() == tshape.rank(), InvalidArgumentError,
                    str_cat(op, ": indices shape ", ishape.to_string(), " must have the rank of ",
                            what, " shape ", tshape.to_string()));
  const std::vector<std::int64_t>& tdims = tshape.dims();
  const std::vector<std::int64_t>& idims = ishape.dims();
  for (std::size_t d = 0; d < tdims.size(); ++d) {
    TENSORBUF_EXPECTS(static_cast<int>(d) == axis || idims[d] <= tdims[d], InvalidArgumentError,
                      str_cat(op, ": indices.shape[", d, "] = ", idims[d], " exceeds ", what,
                              ".shape[", d, "] = ", tdims[d], " (indices shape ",
                              ishape.to_string(), ", ", what, " shape ", tshape.to_string(),
                              ", axis ", axis, ")"));
  }

  ElementsLayout layout;
  layout.tensor_dims = SmallDims(tdims);
  layout.indices_dims = SmallDims(idims);
  layout.axis = axis;
  layout.axis_size = tdims[static_cast<std::size_t>(axis)];
  layout.num_positions = dims_product(idims, 0, idims.size());
  // The tensor's row-major strides (an empty tensor's are never used: no position reaches one
  // in range, or there are no positions).
  std::vector<std::int64_t> tstrides(tdims.size(), 0);
  std::int64_t stride = 1;
  for (std::size_t d = tdims.size(); d-- > 0;) {
    tstrides[d] = stride;
    if (__builtin_mul_overflow(stride, tdims[d], &stride)) stride = 0;
  }
  layout.axis_stride = tstrides[static_cast<std::size_t>(axis)];
  // Merge: drop dims of indices of size 1 (their coordinate is always 0), and fold a dim into
  // the one before when neither is the axis and the tensor's strides run on across them.
  std::vector<std::int64_t> dims;
  std::vector<std::int64_t> strides;
  int merged_axis = 0;
  bool previous_is_axis = false;
  for (std::size_t d = 0; d < idims.size(); ++d) {
    const bool is_axis = static_cast<int>(d) == axis;
    if (!is_axis && idims[d] == 1) continue;
    if (!is_axis && !dims.empty() && !previous_is_axis &&
        strides.back() == idims[d] * tstrides[d]) {
      dims.back() *= idims[d];
      strides.back() = tstrides[d];
      continue;
    }
    if (is_axis) merged_axis = static_cast<int>(dims.size());
    dims.push_back(idims[d]);
    strides.push_back(is_axis ? 0 : tstrides[d]);
    previous_is_axis = is_axis;
  }
  layout.dims = SmallDims(dims);
  layout.strides = SmallDims(strides);
  layout.merged_axis = merged_axis;
  return layout;
}

}  // namespace

GatherElementsPlan plan_gather_elements(const TensorBuffer& params, const TensorBuffer& indices,
                                        const GatherOptions& options) {
  GatherElementsPlan plan;
  plan.layout = plan_layout("gather_elements", "params", params, indices, options.axis);
  plan.dtype = params.data_type();
  plan.element_size = params.type_size();
  plan.index_dtype = indices.data_type();
  return plan;
}

}  // namespace tensorbuf::core

namespace tensorbuf::core {
namespace {

ScatterOp scatter_op_of(Reduction reduction) {
  switch (reduction) {
    case Reduction::kNone: return ScatterOp::kUpdate;
    case Reduction::kAdd: return ScatterOp::kAdd;
    case Reduction::kMul: return ScatterOp::kMul;
    case Reduction::kMin: return ScatterOp::kMin;
    case Reduction::kMax: return ScatterOp::kMax;
  }
  throw InvalidArgumentError(str_cat("scatter_elements: unknown reduction ",
                                     static_cast<int>(reduction)));
}

}  // namespace

ScatterElementsPlan plan_scatter_elements(const TensorBuffer& tensor, const TensorBuffer& indices,
                                          const TensorBuffer& updates,
                                          const ScatterElementsOptions& options) {
  constexpr const char* kName = "scatter_elements";
  ScatterElementsPlan plan;
  plan.op = scatter_op_of(options.reduction);
  plan.layout = plan_layout(kName, "tensor", tensor, indices, options.axis);
  TENSORBUF_EXPECTS(updates.data_type() == tensor.data_type(), InvalidArgumentError,
                    str_cat(kName, ": updates must have the tensor's dtype ",
                            to_string(tensor.data_type()), ", got ",
                            to_string(updates.data_type())));
  const Shape& ushape = BufferAccess::shape(updates);
  const Shape& ishape = BufferAccess::shape(indices);
  TENSORBUF_EXPECTS(ushape == ishape, InvalidArgumentError,
                    str_cat(kName, ": updates shape ", ushape.to_string(),
                            " must equal indices shape ", ishape.to_string()));
  TENSORBUF_EXPECTS(
      options.reduction == Reduction::kNone || tensor.data_type() != DataType::kBool,
      InvalidArgumentError,
      str_cat(kName, ": reduction ", spelling(options.reduction), " is not defined on bool"));
  plan.dtype = tensor.data_type();
  plan.index_dtype = indices.data_type();
  plan.num_elements = BufferAccess::shape(tensor).num_elements();
  return plan;
}

}  // namespace tensorbuf::core
