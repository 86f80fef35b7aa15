#include "core/plan_boolean_mask_update.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "core/error_macros.hpp"
#include "core/mask_rules.hpp"
#include "core/shape_product.hpp"

namespace tensorbuf::core {
namespace {

// n, counted on the host. Only error messages use it: the backends count for the op itself.
std::int64_t count_mask_on_host(const TensorBuffer& mask) {
  const auto* bytes = static_cast<const std::uint8_t*>(mask.host_bytes());
  std::int64_t n = 0;
  for (std::int64_t i = 0; i < mask.flat_size(); ++i) n += bytes[i] != 0 ? 1 : 0;
  return n;
}

// Keeps the dims of one side of the broadcast map that matter: drops target dims of size 1 and
// merges an outer dim into its inner neighbour when outer stride == inner stride * inner dim
// (both contiguous, or both broadcast). Returns the number kept, or -1 when more than
// kMaskUpdateMaxDims remain.
int merge_dims(const std::vector<std::int64_t>& dims, const std::vector<std::int64_t>& strides,
               std::int64_t* out_dims, std::int64_t* out_strides) {
  int kept = 0;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1) continue;
    // Products that overflow (possible only in an empty tensor or updates) are not merged.
    std::int64_t chained = 0;
    std::int64_t merged = 0;
    if (kept > 0 && !__builtin_mul_overflow(strides[i], dims[i], &chained) &&
        out_strides[kept - 1] == chained &&
        !__builtin_mul_overflow(out_dims[kept - 1], dims[i], &merged)) {
      out_dims[kept - 1] = merged;
      out_strides[kept - 1] = strides[i];
      continue;
    }
    if (kept == kMaskUpdateMaxDims) return -1;
    out_dims[kept] = dims[i];
    out_strides[kept] = strides[i];
    ++kept;
  }
  return kept;
}

}  // namespace

Shape mask_update_target_shape(const BooleanMaskUpdatePlan& plan, std::int64_t n) {
  const std::vector<std::int64_t>& dims = plan.tensor_shape.dims();
  std::vector<std::int64_t> target(dims.begin(), dims.begin() + plan.axis);
  target.push_back(n);
  target.insert(target.end(), dims.begin() + plan.axis + plan.mask_rank, dims.end());
  return Shape(std::move(target));
}

std::string rejection_message(const BooleanMaskUpdatePlan& plan,
                              const BooleanMaskUpdateResult& result) {
  const Shape target = mask_update_target_shape(plan, result.count);
  if (plan.broadcast) {
    return str_cat("Incompatible shapes: ", plan.updates_shape.to_string(), " vs. ",
                   target.to_string());
  }
  return str_cat("Updates shape ", plan.updates_shape.to_string(),
                 " is not equal to the target shape ", target.to_string(), " (broadcast = false).");
}

BooleanMaskUpdatePlan plan_boolean_mask_update(const TensorBuffer& tensor, const TensorBuffer& mask,
                                               const TensorBuffer& updates,
                                               const BooleanMaskUpdateOptions& options,
                                               std::int64_t mask_count) {
  const Shape tensor_shape = tensor.shape();
  const Shape mask_shape = mask.shape();
  const Shape updates_shape = updates.shape();

  check_mask_value(mask);
  TENSORBUF_EXPECTS(
      updates.data_type() == tensor.data_type(), InvalidArgumentError,
      str_cat("Updates dtype ", to_string(updates.data_type()), " does not match the tensor dtype ",
              to_string(tensor.data_type()), "."));

  const int mask_rank = mask_shape.rank();
  const int axis = mask_axis(tensor_shape, mask_shape, options.axis);
  const std::vector<std::int64_t>& dims = tensor_shape.dims();
  const auto mask_begin = dims.begin() + axis;
  const auto mask_end = mask_begin + mask_rank;

  BooleanMaskUpdatePlan plan;
  plan.dtype = tensor.data_type();
  plan.element_size = tensor.type_size();
  plan.tensor_shape = tensor_shape;
  plan.updates_shape = updates_shape;
  plan.axis = axis;
  plan.mask_rank = mask_rank;
  plan.broadcast = options.broadcast;

  // Target dims (n in position `axis`, unknown here) and, for each, the stride of `updates`
  // along it (0: broadcast).
  std::vector<std::int64_t> target(dims.begin(), mask_begin);
  target.push_back(-1);
  target.insert(target.end(), mask_end, dims.end());
  const int target_rank = static_cast<int>(target.size());

  const std::vector<std::int64_t>& udims = updates_shape.dims();
  const int updates_rank = updates_shape.rank();
  std::vector<std::int64_t> ustrides(udims.size());
  std::int64_t stride = 1;
  for (int i = updates_rank - 1; i >= 0; --i) {
    ustrides[static_cast<std::size_t>(i)] = stride;
    // Overflow means empty updates, whose strides are never used.
    if (__builtin_mul_overflow(stride, udims[static_cast<std::size_t>(i)], &stride)) stride = 0;
  }

  std::vector<std::int64_t> strides(target.size(), 0);
  bool fits = true;
  if (!options.broadcast) {
    fits = updates_rank == target_rank;
    for (int k = 0; fits && k < target_rank; ++k) {
      const std::int64_t d = udims[static_cast<std::size_t>(k)];
      if (k == plan.axis) {
        plan.required_count = d;
      } else {
        fits = d == target[static_cast<std::size_t>(k)];
      }
      strides[static_cast<std::size_t>(k)] = d == 1 ? 0 : ustrides[static_cast<std::size_t>(k)];
    }
  } else {
    // NumPy: align to the right; leading dims of updates beyond the target's rank must be 1.
    const int shift = updates_rank - target_rank;
    for (int i = 0; i < shift && fits; ++i) fits = udims[static_cast<std::size_t>(i)] == 1;
    for (int k = 0; fits && k < target_rank; ++k) {
      const int ui = k + shift;
      if (ui < 0) continue;  // absent: broadcast
      const std::int64_t d = udims[static_cast<std::size_t>(ui)];
      if (d == 1) continue;  // broadcast
      if (k == plan.axis) {
        plan.required_count = d;
      } else {
        fits = d == target[static_cast<std::size_t>(k)];
      }
      strides[static_cast<std::size_t>(k)] = ustrides[static_cast<std::size_t>(ui)];
    }
  }
  if (!fits) {
    // The text of the backends' count check, with n counted here.
    const std::int64_t n = mask_count >= 0 ? mask_count : count_mask_on_host(mask);
    throw InvalidArgumentError(rejection_message(plan, counted_mask_result(n, -1)));
  }

  MaskUpdateLayout& layout = plan.layout;
  layout.mask_size = mask_shape.num_elements();
  const std::vector<std::int64_t> lead(dims.begin(), mask_begin);
  const std::vector<std::int64_t> trail(mask_end, dims.end());
  layout.outer = dims_product(lead, 0, lead.size());
  layout.inner = dims_product(trail, 0, trail.size());
  layout.row_stride = strides[static_cast<std::size_t>(plan.axis)];
  const std::vector<std::int64_t> lead_strides(strides.begin(), strides.begin() + plan.axis);
  const std::vector<std::int64_t> trail_strides(strides.begin() + plan.axis + 1, strides.end());
  layout.lead_rank = merge_dims(lead, lead_strides, layout.lead_dims, layout.lead_strides);
  layout.trail_rank = merge_dims(trail, trail_strides, layout.trail_dims, layout.trail_strides);
  TENSORBUF_EXPECTS(
      layout.lead_rank >= 0 && layout.trail_rank >= 0, InvalidArgumentError,
      str_cat("Broadcasting updates of shape ", updates_shape.to_string(),
              " over a tensor of shape ", tensor_shape.to_string(), " needs more than ",
              kMaskUpdateMaxDims, " dims on one side of the mask after merging."));
  layout.trail_contiguous =
      layout.trail_rank == 0 || (layout.trail_rank == 1 && layout.trail_strides[0] == 1);
  layout.trail_broadcast = true;
  for (int i = 0; i < layout.trail_rank; ++i) {
    if (layout.trail_strides[i] != 0) layout.trail_broadcast = false;
  }
  return plan;
}

const char* mask_update_capture_blocker(const BooleanMaskUpdatePlan& plan) {
  // Only a required n reaches the host (spec rule 8); the pass itself never reads back.
  if (plan.required_count >= 0 && plan.layout.mask_size > 0) {
    return "the count of true mask entries is read back to validate updates' shape";
  }
  return nullptr;
}

}  // namespace tensorbuf::core
