// The agreement step (agreement.hpp) of the two distributed mask ops, each of whose two
// overloads takes the mask sharded like the tensor (axis 0) or replicated (axis >= 1): written
// once for both, with the global mask's stand-in and the axis rule they share.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "mpi/agreement.hpp"

namespace tensorbuf::dist::detail {

// The true entries of a bool mask (0 for another dtype: the plan rejects it on every rank);
// staged to the host if the mask lives on the device.
std::int64_t count_true(const TensorBuffer& mask);

struct MaskCall {
  Device device;
  std::vector<BufferDesc> masks;      // every rank's mask
  std::int64_t replicated_count = 0;  // a replicated mask's true entries: the global n
};

// Collective. The call `op` (`sharded`: the mask of the axis-0 overload, whose local part is
// `mask`; null: `mask` is replicated) with settings device, axis, `settings`, and a replicated
// mask's count; operands tensor, mask, `operands`. Checks that a sharded mask is distributed as
// the tensor is, before any data moves.
template <class Options>
MaskCall agree_mask_call(std::string_view name, OpId op, const ShardedTensor& tensor,
                         const ShardedTensor* sharded, const TensorBuffer& mask,
                         const Options& options, std::vector<Setting> settings = {},
                         std::vector<Operand> operands = {}) {
  MaskCall out;
  Call call{op};
  out.device = resolve_call(call, options, tensor.local(), [&] {
                 if (sharded != nullptr) {
                   check_same_distribution(name, tensor.comm(), tensor.layout(), sharded->comm(),
                                           sharded->layout());
                 } else {
                   out.replicated_count = count_true(mask);
                 }
               }).device;
  call.settings.push_back(number_setting("axis", options.axis));
  call.settings.insert(call.settings.end(), settings.begin(), settings.end());
  if (sharded == nullptr) {
    call.settings.push_back(number_setting("replicated mask's true count", out.replicated_count));
  }
  call.operands = {
      {"tensor", describe(tensor.local()), Spread::kSharded, &tensor.layout()},
      {"mask", describe(mask), sharded != nullptr ? Spread::kSharded : Spread::kReplicated,
       sharded != nullptr ? &sharded->layout() : nullptr}};
  call.operands.insert(call.operands.end(), operands.begin(), operands.end());
  out.masks = std::move(agree_call(tensor.comm(), call)[1]);
  return out;
}

// Shape-only stand-ins (nothing allocated) of the global tensor and of the global mask: rank
// 0's mask, its dim 0 the sharded mask's global rows.
TensorBuffer global_tensor_stand_in(const ShardedTensor& tensor);
TensorBuffer global_mask_stand_in(const MaskCall& call, const ShardedTensor* sharded);

// The axis rule of the two overloads, on the plan's normalised axis: a sharded mask along axis
// 0, a replicated one along axis >= 1 (InvalidArgumentError naming `requested`).
void check_mask_axis(std::string_view name, bool sharded, int plan_axis, int requested);

}  // namespace tensorbuf::dist::detail
