// Distributed boolean_mask (spec/indexing.md 6). No payload moves between ranks:
//  - axis 0, mask sharded like the tensor: each rank selects from its own rows with the local
//    op; the result's layout is every rank's count (RowLayout::from_local, one all-gather), so
//    the rank-order concatenation is the single-process result;
//  - axis >= 1, mask replicated: each rank selects along that axis in its rows; the result
//    keeps the tensor's layout.
// Validation first, on the global shapes (the single-process plan on shape-only stand-ins), the
// same on every rank; the mask's contents never change a message (boolean_mask has no
// data-dependent error), so nothing about them is agreed but the replicated mask's count.
#include <optional>
#include <utility>

#include "core/dispatch.hpp"
#include "core/error_macros.hpp"
#include "core/plan_boolean_mask.hpp"
#include "mpi/agreement.hpp"
#include "mpi/collective.hpp"
#include "mpi/validate.hpp"

namespace tensorbuf::dist {
namespace {

constexpr std::string_view kName = "boolean_mask";

std::int64_t count_true(const TensorBuffer& mask) {
  if (mask.data_type() != DataType::kBool || mask.flat_size() == 0) return 0;
  const auto* bytes = mask.host<std::uint8_t>();  // staged if on the device
  std::int64_t n = 0;
  for (std::int64_t i = 0; i < mask.flat_size(); ++i) n += bytes[i] != 0 ? 1 : 0;
  return n;
}

// The agreement step and the single-process checks of either overload (`sharded`: the mask of
// the axis-0 overload; null: `mask` is replicated). Returns the agreed device.
Device agree_and_check(const ShardedTensor& tensor, const ShardedTensor* sharded,
                       const TensorBuffer& mask, const BooleanMaskOptions& options) {
  Device device;
  std::int64_t replicated_count = 0;
  detail::Call call{sharded != nullptr ? detail::OpId::kMaskShardedMask
                                       : detail::OpId::kMaskReplicatedMask};
  call.failure = detail::attempt([&] {
    device = core::resolve_device(options.device, tensor.local());
    if (sharded != nullptr) {
      detail::check_same_distribution(kName, tensor.comm(), tensor.layout(), sharded->comm(),
                                      sharded->layout());
    } else {
      replicated_count = count_true(mask);
    }
  });
  call.settings = {detail::device_setting(device), detail::number_setting("axis", options.axis)};
  if (sharded == nullptr) {
    call.settings.push_back(
        detail::number_setting("replicated mask's true count", replicated_count));
  }
  call.operands = {
      {"tensor", detail::describe(tensor.local()), detail::Spread::kSharded, &tensor.layout()},
      {"mask", detail::describe(mask),
       sharded != nullptr ? detail::Spread::kSharded : detail::Spread::kReplicated,
       sharded != nullptr ? &sharded->layout() : nullptr}};
  const auto all = detail::agree_call(tensor.comm(), call);
  // Shape-only stand-ins of the global tensor and mask (nothing allocated).
  const TensorBuffer global_tensor =
      TensorBuffer::create_uninitialized(tensor.global_shape(), tensor.local().data_type());
  std::vector<std::int64_t> mask_dims = all[1][0].dims;
  if (sharded != nullptr && !mask_dims.empty()) mask_dims[0] = sharded->layout().rows();
  const TensorBuffer global_mask =
      TensorBuffer::create_uninitialized(Shape(mask_dims), all[1][0].dtype);
  const core::BooleanMaskPlan plan = core::plan_boolean_mask(global_tensor, global_mask, options);
  if (sharded != nullptr) {
    TENSORBUF_EXPECTS(plan.axis == 0, InvalidArgumentError,
                      core::str_cat(kName, ": a sharded mask goes along axis 0, got axis ",
                                    options.axis, " (pass a replicated mask for axis >= 1)"));
  } else {
    TENSORBUF_EXPECTS(plan.axis >= 1, InvalidArgumentError,
                      core::str_cat(kName, ": a replicated mask goes along axis >= 1, got axis ",
                                    options.axis, " (shard the mask for axis 0)"));
  }
  return device;
}

// The local op on this rank's rows; `layout` of the result (null: one from every rank's count).
ShardedTensor select(const ShardedTensor& tensor, const TensorBuffer& mask, const Device& device,
                     const BooleanMaskOptions& options, int axis, const RowLayout* layout) {
  BooleanMaskOptions local = options;
  local.device = device;
  local.axis = axis;
  std::optional<TensorBuffer> out;
  // Validated together, nothing moved yet: a failure here (memory, CUDA) is agreed and thrown.
  detail::agree(tensor.comm(),
                [&] { out.emplace(tensorbuf::boolean_mask(tensor.local(), mask, local)); });
  RowLayout result_layout =
      layout != nullptr ? *layout : RowLayout::from_local(tensor.comm(), out->shape()[0]);
  return ShardedTensor(tensor.comm(), std::move(result_layout), std::move(*out));
}

}  // namespace

ShardedTensor boolean_mask(const ShardedTensor& tensor, const ShardedTensor& mask,
                           const BooleanMaskOptions& options) {
  const Device device = agree_and_check(tensor, &mask, mask.local(), options);
  return select(tensor, mask.local(), device, options, 0, nullptr);
}

ShardedTensor boolean_mask(const ShardedTensor& tensor, const TensorBuffer& mask,
                           const BooleanMaskOptions& options) {
  const Device device = agree_and_check(tensor, nullptr, mask, options);
  // The normalised axis (>= 1, checked): the plan's, for the local tensor of the same rank.
  const int axis = options.axis < 0 ? options.axis + tensor.local().shape().rank() : options.axis;
  return select(tensor, mask, device, options, axis, &tensor.layout());
}

}  // namespace tensorbuf::dist
