// CUDA graph capture (docs/capture.md): which op forms can be captured, and the check that
// turns a call that cannot into UnavailableError before it enqueues anything, instead of a
// host wait that would invalidate the caller's capture.
#pragma once

#include "core/boolean_mask_plan.hpp"
#include "core/boolean_mask_update_plan.hpp"
#include "core/gather_nd_plan.hpp"
#include "core/scatter_nd_plan.hpp"
#include "tensorbuf/tensor_buffer.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

// Why a form must read device data on the host (null: it never does, so it can be captured).
// The plans carry the resolved policy. An op whose rule is its plan's own has its blocker
// beside the plan (core/plan_x.hpp).
const char* scatter_nd_capture_blocker(const ScatterNdPlan& plan);
const char* mask_update_capture_blocker(const BooleanMaskUpdatePlan& plan);
const char* gather_nd_capture_blocker(const GatherNdPlan& plan);
// gather, gather_elements, scatter_elements: kError reads the first bad index back.
const char* axis_index_capture_blocker(OutOfBoundsPolicy policy);
// boolean_mask and compress size their output by the count of true entries, read back on the
// host; boolean_mask_into writes a caller-sized output and never reads back.
const char* boolean_mask_capture_blocker(const BooleanMaskPlan& plan);
const char* boolean_mask_into_capture_blocker(const BooleanMaskPlan& plan);
// quantize_linear, dequantize_linear: scale and zero point are validated on the host, so a
// freshest copy on the device would be a host wait.
const char* linear_capture_blocker(const TensorBuffer& scale, const TensorBuffer& zero_point);
// normalize, quantize, dequantize, cast and the Processor have no blocker: one kernel pass whose
// parameters travel in kernel arguments.

// Whether `device` is CUDA and the stream an op would run on there (`stream`, null: the
// library's) is being captured. False without a usable device (the run raises then).
bool is_capturing(Device device, Stream stream);

// Throws UnavailableError naming `op` and `blocker` when `blocker` is set and is_capturing.
// Call it before any buffer is touched.
void reject_capture(const char* op, const char* blocker, Device device, Stream stream);

}  // namespace tensorbuf::core
