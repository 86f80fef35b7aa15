// The two backends of boolean_mask (and boolean_mask_into, compress): the same signature on the
// CPU and on CUDA (src/cpu and src/cuda define them; src/cuda/unavailable.cpp stands in without
// CUDA).
#pragma once

#include "core/boolean_mask_plan.hpp"
#include "core/cuda_context.hpp"

namespace tensorbuf::cpu {

// Counts the mask in blocks (multithreaded), then each thread copies the selected rows of its
// blocks, runs of consecutive true rows as one copy.
core::BooleanMaskResult boolean_mask(const core::BooleanMaskPlan& plan,
                                     const core::BooleanMaskBuffers& buffers,
                                     const core::AllocateMasked& allocate);

}  // namespace tensorbuf::cpu

namespace tensorbuf::cuda {

// Tile counts -> scan -> compaction on context.stream. The sized form reads n back (one host
// wait) before allocating; the into form stores n on the device and never waits.
core::BooleanMaskResult boolean_mask(const core::BooleanMaskPlan& plan,
                                     const core::BooleanMaskBuffers& buffers,
                                     const core::AllocateMasked& allocate,
                                     const core::CudaContext& context);

}  // namespace tensorbuf::cuda
