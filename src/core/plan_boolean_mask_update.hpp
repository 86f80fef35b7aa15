// Validating and planning boolean_mask_update, and the text of its rejected run (src/core
// only). The mask rules it shares with the other mask ops: core/mask_rules.hpp.
#pragma once

#include <cstdint>
#include <string>

#include "core/boolean_mask_update_plan.hpp"
#include "core/export_for_mpi.hpp"
#include "tensorbuf/ops.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::core {

// Validates the arguments (InvalidArgumentError with the spec's texts) and plans the op.
// Errors that do not depend on n are raised here; to name the target shape their message
// counts the mask on the host (error path only). Errors that depend on n are left to the
// backend's count (plan.required_count) and raised with core::raise_if_rejected.
// `mask_count`: the count n when the caller already knows it (the distributed op's global
// count, its mask being a shape-only stand-in); -1 counts `mask` on the host when needed.
TENSORBUF_INTERNAL_FOR_MPI BooleanMaskUpdatePlan plan_boolean_mask_update(
    const TensorBuffer& tensor, const TensorBuffer& mask, const TensorBuffer& updates,
    const BooleanMaskUpdateOptions& options, std::int64_t mask_count = -1);

// The target shape tensor.shape[:axis] + [n] + tensor.shape[axis+K:].
Shape mask_update_target_shape(const BooleanMaskUpdatePlan& plan, std::int64_t n);

// The updates that do not fit the target shape for result.count true entries:
// "Incompatible shapes: [3] vs. [2]" (broadcast), or "Updates shape ... is not equal to the
// target shape ... (broadcast = false)." Plan-time checks raise the same text. Beside the plan,
// as core::raise_if_rejected and the distributed op find it (core/op_errors.hpp).
TENSORBUF_INTERNAL_FOR_MPI std::string rejection_message(const BooleanMaskUpdatePlan& plan,
                                                         const BooleanMaskUpdateResult& result);

// Why a form must read device data on the host under CUDA graph capture (core/capture.hpp), or
// null: a required count (updates that fix n) is read back to check it.
const char* mask_update_capture_blocker(const BooleanMaskUpdatePlan& plan);

}  // namespace tensorbuf::core
