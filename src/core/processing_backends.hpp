// The fused Processor's backend entry points, the same plan on the CPU and on CUDA (src/cpu and
// src/cuda define them; src/cuda/unavailable.cpp stands in without CUDA). The single ops
// normalize / quantize / dequantize / cast run on CUDA through the same chain.
#pragma once

#include "core/cuda_context.hpp"
#include "core/processing_plan.hpp"

namespace tensorbuf::cpu {

// out[i] = the plan's stages applied to in[i], for every i, in one pass (blocks of
// kProcessBlock elements carried through every stage in cache), on the thread pool.
void process(const core::ProcessPlan& plan, const core::ProcessBuffers& buffers);

}  // namespace tensorbuf::cpu

namespace tensorbuf::cuda {

// The same, one element per thread through every stage in registers, on context.stream, with
// no host wait (src/kernels/process_chain.hpp).
void process(const core::ProcessPlan& plan, const core::ProcessBuffers& buffers,
             const core::CudaContext& context);

}  // namespace tensorbuf::cuda
