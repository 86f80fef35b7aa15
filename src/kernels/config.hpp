// Helpers shared by host and device code of the kernels. Kernel functions and functors are
// marked TENSORBUF_HOST_DEVICE, the public headers' macro (one for the whole library).
#pragma once

#include <atomic>
#include <cstdint>

#include "tensorbuf/config.hpp"

namespace tensorbuf::kernels {

// Atomic helpers usable from both executors: device atomics under nvcc's device pass, and
// std::atomic_ref on the host (the host executor may run functors on several threads).
TENSORBUF_HOST_DEVICE inline void atomic_add_i64(std::int64_t* target, std::int64_t value) {
#if defined(__CUDA_ARCH__)
  atomicAdd(reinterpret_cast<unsigned long long*>(target), static_cast<unsigned long long>(value));
#else
  std::atomic_ref<std::int64_t>(*target).fetch_add(value, std::memory_order_relaxed);
#endif
}

TENSORBUF_HOST_DEVICE inline void atomic_min_i64(std::int64_t* target, std::int64_t value) {
#if defined(__CUDA_ARCH__)
  atomicMin(reinterpret_cast<long long*>(target), static_cast<long long>(value));
#else
  std::atomic_ref<std::int64_t> ref(*target);
  std::int64_t current = ref.load(std::memory_order_relaxed);
  while (value < current && !ref.compare_exchange_weak(current, value, std::memory_order_relaxed)) {
  }
#endif
}

// q = a / b and r = a - q * b for a >= 0, b > 0, in 32-bit arithmetic when both fit (64-bit
// division is several times slower on a GPU).
TENSORBUF_HOST_DEVICE inline void divide(std::int64_t a, std::int64_t b, std::int64_t& q,
                                         std::int64_t& r) {
  if (a <= 0xffffffffll && b <= 0xffffffffll) {
    q = static_cast<std::uint32_t>(a) / static_cast<std::uint32_t>(b);
  } else {
    q = a / b;
  }
  r = a - q * b;
}

}  // namespace tensorbuf::kernels
