// Validating and planning boolean_mask_update (src/core only; its error texts:
// core/op_errors.hpp).
#pragma once

#include <cstdint>

#include "core/boolean_mask_update_plan.hpp"
#include "core/export_for_mpi.hpp"
#include "tensorbuf/ops.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::core {

// The mask rules every mask op shares (spec/boolean_mask_update.md rule 2): a bool mask of rank
// K >= 1 ...
void check_mask_value(const TensorBuffer& mask);
// ... whose shape is tensor.shape[axis:axis+K]; returns the axis normalised (>= 0).
int mask_axis(const Shape& tensor_shape, const Shape& mask_shape, int axis);

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

}  // namespace tensorbuf::core
