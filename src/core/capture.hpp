// CUDA graph capture (docs/capture.md): which op forms can be captured, and the check that
// turns a call that cannot into UnavailableError before it enqueues anything, instead of a
// host wait that would invalidate the caller's capture.
#pragma once

#include "tensorbuf/tensor_buffer.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

// An op's blocker: why a form must read device data on the host (null: it never does, so it
// can be captured), from what its plan resolved. Each op's is beside its plan
// (core/plan_x.hpp); the rules that several ops share are here. An op
// without one (the processing ops, the Processor: one kernel pass whose parameters travel in
// kernel arguments) passes null.

// The axis-indexed ops (core/axis_indices.hpp): kError reads the first bad index back.
const char* axis_index_capture_blocker(OutOfBoundsPolicy policy);
// The per-axis (de)quantizers: scale and zero point are validated on the host, so a freshest
// copy on the device would be a host wait.
const char* linear_capture_blocker(const TensorBuffer& scale, const TensorBuffer& zero_point);

// Whether `device` is CUDA and the stream an op would run on there (`stream`, null: the
// library's) is being captured. False without a usable device (the run raises then).
bool is_capturing(Device device, Stream stream);

// Throws UnavailableError naming `op` and `blocker` when `blocker` is set and is_capturing.
// Call it before any buffer is touched.
void reject_capture(const char* op, const char* blocker, Device device, Stream stream);

}  // namespace tensorbuf::core
