// The two backends of gather: the same signature on the CPU and on CUDA (src/cpu and src/cuda
// define them; src/cuda/unavailable.cpp stands in without CUDA).
#pragma once

#include "core/cuda_context.hpp"
#include "core/gather_plan.hpp"

namespace tensorbuf::cpu {

// kError: the indices checked first (parallel chunks, the first chunk's first bad position is
// the smallest), then rows of I elements copied in parallel chunks; kDrop: a bad index's row
// is zeros.
core::AxisIndexResult gather(const core::GatherPlan& plan, const core::GatherBuffers& buffers);

}  // namespace tensorbuf::cpu

namespace tensorbuf::cuda {

// One pass over the output's carriers on context.stream; kError records the first bad position
// on the device and reads it back (one host wait), kDrop never waits.
core::AxisIndexResult gather(const core::GatherPlan& plan, const core::GatherBuffers& buffers,
                             const core::CudaContext& context);

}  // namespace tensorbuf::cuda
