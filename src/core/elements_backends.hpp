// The two backends of gather_elements and scatter_elements: the same signatures on the CPU and
// on CUDA (src/cpu and src/cuda define them; src/cuda/unavailable.cpp stands in without CUDA).
#pragma once

#include <cstdint>

#include "core/cuda_context.hpp"
#include "core/elements_plan.hpp"

namespace tensorbuf::cpu {

// kError: the indices checked first; then positions in parallel chunks, an element each; kDrop:
// a bad index's element is zero.
core::AxisIndexResult gather_elements(const core::GatherElementsPlan& plan,
                                      const core::GatherElementsBuffers& buffers);

// kError: the indices checked before anything is written; then, for a tensor beyond the
// caches, the positions bucketed by output block and each block updated in cache; else out =
// tensor (unless in place) and the positions applied in row-major order per target (positions
// that share a target differ only along the axis, so the lanes across it run in parallel
// chunks, each in axis order).
core::AxisIndexResult scatter_elements(const core::ScatterElementsPlan& plan,
                                       const core::ScatterElementsBuffers& buffers);
// The bucketed path whatever the size, on `threads` threads with blocks of `block_bytes` (a
// power of two at least the element size): for tests, with blocks small enough for many.
core::AxisIndexResult scatter_elements_bucketed(const core::ScatterElementsPlan& plan,
                                                const core::ScatterElementsBuffers& buffers,
                                                int threads, std::int64_t block_bytes);

}  // namespace tensorbuf::cpu

namespace tensorbuf::cuda {

// One pass over the output on context.stream; kError records the first bad position on the
// device and reads it back (one host wait), kDrop never waits.
core::AxisIndexResult gather_elements(const core::GatherElementsPlan& plan,
                                      const core::GatherElementsBuffers& buffers,
                                      const core::CudaContext& context);

// kError: the indices checked and the first bad position read back before anything is written
// (one host wait); then atomics (duplicates in any order), or with `deterministic` a stable
// sort by target and each target's run reduced in position order (bit-equal to the CPU).
core::AxisIndexResult scatter_elements(const core::ScatterElementsPlan& plan,
                                       const core::ScatterElementsBuffers& buffers,
                                       const core::CudaContext& context);

}  // namespace tensorbuf::cuda
