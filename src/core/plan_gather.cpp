#include "core/plan_gather.hpp"

#include <algorithm>
#include <string>

#include "core/axis_indices.hpp"
#include "core/buffer_access.hpp"
#include "core/error_macros.hpp"
#include "core/nd_indices.hpp"
#include "core/shape_product.hpp"

namespace tensorbuf::core {
namespace {

constexpr const char* kName = "gather";

std::string dims_text(const std::vector<std::int64_t>& dims, std::size_t count) {
  return Shape(std::vector<std::int64_t>(dims.begin(),
                                         dims.begin() + static_cast<std::ptrdiff_t>(count)))
      .to_string();
}

}  // namespace

GatherPlan plan_gather(const TensorBuffer& params, const TensorBuffer& indices,
                       const GatherOptions& options) {
  const Shape& params_shape = BufferAccess::shape(params);
  const Shape& indices_shape = BufferAccess::shape(indices);
  const std::vector<std::int64_t>& pdims = params_shape.dims();
  const std::vector<std::int64_t>& idims = indices_shape.dims();

  check_index_dtype(kName, indices.data_type());
  TENSORBUF_EXPECTS(params_shape.rank() >= 1, InvalidArgumentError,
                    str_cat(kName, ": params must have rank >= 1, got a scalar"));
  const int axis = normalize_axis(kName, options.axis, "params", params_shape);
  const int b = options.batch_dims;
  // tf.gather: batch_dims <= indices.rank and batch_dims <= axis (negative batch_dims are
  // rejected, as gather_nd rejects them).
  TENSORBUF_EXPECTS(b >= 0 && b <= indices_shape.rank(), InvalidArgumentError,
                    str_cat(kName, ": batch_dims = ", b, " must be between 0 and indices.rank = ",
                            indices_shape.rank(), " (indices shape ", indices_shape.to_string(),
                            ")"));
  TENSORBUF_EXPECTS(b <= axis, InvalidArgumentError,
                    str_cat(kName, ": batch_dims = ", b, " must not exceed axis = ", axis,
                            " (params shape ", params_shape.to_string(), ")"));
  const auto nb = static_cast<std::size_t>(b);
  TENSORBUF_EXPECTS(
      std::equal(pdims.begin(), pdims.begin() + b, idims.begin()), InvalidArgumentError,
      str_cat(kName, ": the batch dims of params ", dims_text(pdims, nb), " and indices ",
              dims_text(idims, nb), " differ (batch_dims ", b, ", params shape ",
              params_shape.to_string(), ", indices shape ", indices_shape.to_string(), ")"));

  const auto na = static_cast<std::size_t>(axis);
  GatherPlan plan;
  plan.dtype = params.data_type();
  plan.element_size = params.type_size();
  plan.index_dtype = indices.data_type();
  plan.params_dims = SmallDims(pdims);
  plan.indices_dims = SmallDims(idims);
  plan.axis = axis;
  plan.batch_dims = b;
  plan.batches = dims_product(pdims, 0, nb);
  plan.outer = dims_product(pdims, nb, na);
  plan.axis_size = pdims[na];
  plan.inner = dims_product(pdims, na + 1, pdims.size());
  plan.indices_per_batch = dims_product(idims, nb, idims.size());
  plan.num_indices = dims_product(idims, 0, idims.size());
  return plan;
}

std::vector<std::int64_t> gather_output_dims(const GatherPlan& plan) {
  std::vector<std::int64_t> out(plan.params_dims.begin(), plan.params_dims.begin() + plan.axis);
  out.insert(out.end(), plan.indices_dims.begin() + plan.batch_dims, plan.indices_dims.end());
  out.insert(out.end(), plan.params_dims.begin() + plan.axis + 1, plan.params_dims.end());
  return out;
}

}  // namespace tensorbuf::core
