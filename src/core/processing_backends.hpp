// The fused Processor's backend entry point (CPU only so far: core/processor.cpp refuses a
// CUDA device before planning).
#pragma once

#include "core/processing_plan.hpp"

namespace tensorbuf::cpu {

// out[i] = the plan's stages applied to in[i], for every i, in one pass (blocks of
// kProcessBlock elements carried through every stage in cache), on the thread pool.
void process(const core::ProcessPlan& plan, const core::ProcessBuffers& buffers);

}  // namespace tensorbuf::cpu
