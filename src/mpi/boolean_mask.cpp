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
#include "mpi/mask_agreement.hpp"
#include "mpi/validate.hpp"
#include "tensorbuf/spellings.hpp"

namespace tensorbuf::dist {
namespace {

constexpr std::string_view kName = spelling(OpFamily::kBooleanMask);

// The agreement step (mask_agreement.hpp) and the single-process checks of either overload
// (`sharded`: the mask of the axis-0 overload; null: `mask` is replicated). Returns the agreed
// device.
Device agree_and_check(const ShardedTensor& tensor, const ShardedTensor* sharded,
                       const TensorBuffer& mask, const BooleanMaskOptions& options) {
  const detail::MaskCall agreed = detail::agree_mask_call(
      kName,
      sharded != nullptr ? detail::OpId::kMaskShardedMask : detail::OpId::kMaskReplicatedMask,
      tensor, sharded, mask, options);
  const core::BooleanMaskPlan plan =
      core::plan_boolean_mask(detail::global_tensor_stand_in(tensor),
                              detail::global_mask_stand_in(agreed, sharded), options);
  detail::check_mask_axis(kName, sharded != nullptr, plan.axis, options.axis);
  return agreed.device;
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
