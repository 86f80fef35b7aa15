#include "core/plan_gather_nd.hpp"

#include <algorithm>
#include <string>

#include "core/buffer_access.hpp"
#include "core/error_macros.hpp"
#include "core/nd_indices.hpp"
#include "core/shape_product.hpp"

namespace tensorbuf::core {
namespace {

constexpr const char* kName = "gather_nd";

// "[2,3]"-style text of dims [begin, end).
std::string dims_text(const std::vector<std::int64_t>& dims, std::size_t begin, std::size_t end) {
  return Shape(std::vector<std::int64_t>(dims.begin() + static_cast<std::ptrdiff_t>(begin),
                                         dims.begin() + static_cast<std::ptrdiff_t>(end)))
      .to_string();
}

}  // namespace

GatherNdPlan plan_gather_nd(const TensorBuffer& params, const TensorBuffer& indices,
                            const GatherOptions& options) {
  const Shape& params_shape = BufferAccess::shape(params);
  const Shape& indices_shape = BufferAccess::shape(indices);
  const std::vector<std::int64_t>& pdims = params_shape.dims();
  const std::vector<std::int64_t>& idims = indices_shape.dims();
  const int params_rank = params_shape.rank();
  const int indices_rank = indices_shape.rank();
  const int b = options.batch_dims;

  check_index_dtype(kName, indices.data_type());
  // Rule 1: 0 <= batch_dims < indices.rank (so indices has rank >= 1).
  TENSORBUF_EXPECTS(b >= 0 && b < indices_rank, InvalidArgumentError,
                    str_cat(kName, ": batch_dims = ", b,
                            " must be between 0 and indices.rank - 1 = ", indices_rank - 1,
                            " (indices shape ", indices_shape.to_string(), ")"));
  // 1 <= D <= params.rank - batch_dims.
  const std::int64_t depth = idims.back();
  TENSORBUF_EXPECTS(depth >= 1 && depth <= params_rank - b, InvalidArgumentError,
                    str_cat(kName, ": index depth indices.shape[-1] = ", depth,
                            " must be between 1 and params.rank - batch_dims = ", params_rank - b,
                            " (indices shape ", indices_shape.to_string(), ", params shape ",
                            params_shape.to_string(), ", batch_dims ", b, ")"));
  const auto nb = static_cast<std::size_t>(b);
  TENSORBUF_EXPECTS(
      std::equal(pdims.begin(), pdims.begin() + b, idims.begin()), InvalidArgumentError,
      str_cat(kName, ": the batch dims of params ", dims_text(pdims, 0, nb), " and indices ",
              dims_text(idims, 0, nb), " differ (batch_dims ", b, ", params shape ",
              params_shape.to_string(), ", indices shape ", indices_shape.to_string(), ")"));
  const int d = static_cast<int>(depth);

  GatherNdPlan plan;
  plan.dtype = params.data_type();
  plan.element_size = params.type_size();
  plan.index_dtype = indices.data_type();
  plan.params_dims = SmallDims(pdims);
  plan.indices_dims = SmallDims(idims);
  plan.batch_dims = b;
  plan.depth = d;
  plan.num_rows = dims_product(idims, 0, idims.size() - 1);
  plan.rows_per_batch = dims_product(idims, nb, idims.size() - 1);
  plan.slice_size = dims_product(pdims, nb + static_cast<std::size_t>(d), pdims.size());
  plan.index_bounds.assign(pdims.data() + b, pdims.data() + b + d);
  plan.slices_per_batch = slice_strides(pdims, b, d, plan.slice_strides);
  return plan;
}

std::vector<std::int64_t> gather_nd_output_dims(const GatherNdPlan& plan) {
  std::vector<std::int64_t> out(plan.indices_dims.begin(), plan.indices_dims.end() - 1);
  out.insert(out.end(), plan.params_dims.begin() + plan.batch_dims + plan.depth,
             plan.params_dims.end());
  return out;
}

std::string rejection_message(const GatherNdPlan& plan, const GatherNdResult& result) {
  return bad_index_message(plan.indices_dims, result.first_bad_index, result.bad_components,
                           gather_nd_indexed_shape(plan));
}

const char* gather_nd_capture_blocker(const GatherNdPlan& plan) {
  if (plan.policy == OutOfBoundsPolicy::kError) {
    return "kError reads the first bad row back to the host";
  }
  return nullptr;
}

}  // namespace tensorbuf::core
