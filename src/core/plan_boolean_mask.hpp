// Validating and planning boolean_mask, boolean_mask_into and compress (src/core only).
#pragma once

#include "core/boolean_mask_plan.hpp"
#include "core/export_for_mpi.hpp"
#include "tensorbuf/ops.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::core {

// boolean_mask: the mask rules (core/mask_rules.hpp: InvalidArgumentError with their texts).
// The plan's capacity is -1 (sized by n).
TENSORBUF_INTERNAL_FOR_MPI BooleanMaskPlan plan_boolean_mask(const TensorBuffer& tensor,
                                                             const TensorBuffer& mask,
                                                             const BooleanMaskOptions& options);

// boolean_mask_into: boolean_mask's rules, plus `out` (tensor's dtype, the output shape with any
// capacity C in the mask's place) and `count` (int64, one element); capacity = C.
BooleanMaskPlan plan_boolean_mask_into(const TensorBuffer& tensor, const TensorBuffer& mask,
                                       const TensorBuffer& out, const TensorBuffer& count,
                                       const BooleanMaskOptions& options);

// compress: a 1-D bool condition along the axis (unset: the flattened input). Entries past the
// axis's length must be false: they are read on the host (a sync for a device condition).
BooleanMaskPlan plan_compress(const TensorBuffer& input, const TensorBuffer& condition,
                              const CompressOptions& options);

// The output shape with n rows in the mask's place: shape[:axis] + [n] + shape[axis+K:].
Shape boolean_mask_output_shape(const Shape& shape, int axis, int mask_rank, std::int64_t n);
// The same for a plan of `shape` (compress without an axis: [n]).
Shape boolean_mask_output_shape(const BooleanMaskPlan& plan, const Shape& shape, std::int64_t n);

// Why a form must read device data on the host under CUDA graph capture (core/capture.hpp), or
// null: boolean_mask and compress size their output by the count of true entries, read back on
// the host; boolean_mask_into writes a caller-sized output and never reads back.
const char* boolean_mask_capture_blocker(const BooleanMaskPlan& plan);
const char* boolean_mask_into_capture_blocker(const BooleanMaskPlan& plan);

}  // namespace tensorbuf::core
