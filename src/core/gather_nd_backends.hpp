// The two backends of gather_nd: the same signature on the CPU and on CUDA (src/cpu and src/cuda
// define them; src/cuda/unavailable.cpp stands in without CUDA).
#pragma once

#include "core/cuda_context.hpp"
#include "core/gather_nd_plan.hpp"

namespace tensorbuf::cpu {

// Rows in parallel chunks, each row's slice one copy; kError stops a chunk at its first bad row
// (the smallest over the chunks is the first), kDrop writes zeros for a bad row.
core::GatherNdResult gather_nd(const core::GatherNdPlan& plan,
                               const core::GatherNdBuffers& buffers);

}  // namespace tensorbuf::cpu

namespace tensorbuf::cuda {

// One pass over the output's carriers on context.stream; kError records the first bad row on
// the device and reads it back (one host wait), kDrop never waits.
core::GatherNdResult gather_nd(const core::GatherNdPlan& plan, const core::GatherNdBuffers& buffers,
                               const core::CudaContext& context);

}  // namespace tensorbuf::cuda
