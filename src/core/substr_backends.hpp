// The two backends of substr: the same signature on the CPU and on CUDA (src/cpu and src/cuda
// define them; src/cuda/unavailable.cpp stands in without CUDA).
#pragma once

#include <cstdint>
#include <functional>

#include "core/cuda_context.hpp"
#include "core/substr_plan.hpp"

namespace tensorbuf::core {

// Allocates the output's chars (total bytes) on the backend's side; a backend calls it once,
// after the sizes are known, and only when it reports no bad element (CUDA's bounded form:
// once, first, with plan.chars_capacity).
using AllocateChars = std::function<std::uint8_t*(std::int64_t total)>;

}  // namespace tensorbuf::core

namespace tensorbuf::cpu {

// Two passes over contiguous chunks of the output, multithreaded (src/cpu/substr.cpp).
core::SubstrResult substr(const core::SubstrPlan& plan, const core::SubstrBuffers& buffers,
                          const core::AllocateChars& allocate_chars);

}  // namespace tensorbuf::cpu

namespace tensorbuf::cuda {

// Sizes -> scan -> copy on context.stream; one host read (the total, with kError's first bad
// index), and one more on the error path (the bad element's pos). None with
// plan.chars_capacity >= 0: allocate_chars(capacity) first, result.total_bytes = -1.
core::SubstrResult substr(const core::SubstrPlan& plan, const core::SubstrBuffers& buffers,
                          const core::AllocateChars& allocate_chars,
                          const core::CudaContext& context);

}  // namespace tensorbuf::cuda
