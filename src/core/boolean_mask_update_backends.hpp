// The two backends of boolean_mask_update: the same signature on the CPU and on CUDA (src/cpu
// and src/cuda define them; src/cuda/unavailable.cpp stands in without CUDA).
#pragma once

#include "core/boolean_mask_update_plan.hpp"
#include "core/cuda_context.hpp"

namespace tensorbuf::cpu {

// The CPU backend: counts the mask (one pass, multithreaded), checks plan.required_count, then
// writes out = tensor with the masked rows replaced (fused copy when out != tensor).
core::BooleanMaskUpdateResult boolean_mask_update(const core::BooleanMaskUpdatePlan& plan,
                                                  const core::BooleanMaskUpdateBuffers& buffers);

}  // namespace tensorbuf::cpu

namespace tensorbuf::cuda {

// The CUDA backend: enqueues mask flags -> exclusive scan -> fused write on context.stream.
// The host waits only when plan.required_count >= 0 (one read of n).
core::BooleanMaskUpdateResult boolean_mask_update(const core::BooleanMaskUpdatePlan& plan,
                                                  const core::BooleanMaskUpdateBuffers& buffers,
                                                  const core::CudaContext& context);

}  // namespace tensorbuf::cuda
