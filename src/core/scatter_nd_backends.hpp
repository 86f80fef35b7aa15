// The two backends of the scatter ops: the same signature on the CPU and on CUDA (src/cpu and
// src/cuda define them; src/cuda/unavailable.cpp stands in without CUDA).
#pragma once

#include "core/cuda_context.hpp"
#include "core/scatter_nd_plan.hpp"

namespace tensorbuf::cpu {

// Writes out = tensor with the rows applied (rows in order, deterministic), multithreaded.
// Under kError nothing is written when a row is bad.
core::ScatterNdResult scatter_nd(const core::ScatterNdPlan& plan,
                                 const core::ScatterNdBuffers& buffers);

}  // namespace tensorbuf::cpu

namespace tensorbuf::cuda {

// Enqueues the work on context.stream; no host wait except under kError (one read of the first
// bad row). Atomics (order of duplicates unspecified) unless plan.deterministic, which sorts
// rows by destination and reduces them in row order.
core::ScatterNdResult scatter_nd(const core::ScatterNdPlan& plan,
                                 const core::ScatterNdBuffers& buffers,
                                 const core::CudaContext& context);

}  // namespace tensorbuf::cuda
