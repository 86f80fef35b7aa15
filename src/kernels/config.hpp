// Macros and helpers shared by host and device code of the kernels.
#pragma once

#include <atomic>
#include <cstdint>

#if defined(__CUDACC__)
#define TENSORBUF_HD __host__ __device__
#else
#define TENSORBUF_HD
#endif

namespace tensorbuf::kernels {

// Atomic helpers usable from both executors: device atomics under nvcc's device pass, and
// std::atomic_ref on the host (the host executor may run functors on several threads).
TENSORBUF_HD inline void atomic_add_i64(std::int64_t* target, std::int64_t value) {
#if defined(__CUDA_ARCH__)
  atomicAdd(reinterpret_cast<unsigned long long*>(target), static_cast<unsigned long long>(value));
#else
  std::atomic_ref<std::int64_t>(*target).fetch_add(value, std::memory_order_relaxed);
#endif
}

TENSORBUF_HD inline void atomic_min_i64(std::int64_t* target, std::int64_t value) {
#if defined(__CUDA_ARCH__)
  atomicMin(reinterpret_cast<long long*>(target), static_cast<long long>(value));
#else
  std::atomic_ref<std::int64_t> ref(*target);
  std::int64_t current = ref.load(std::memory_order_relaxed);
  while (value < current && !ref.compare_exchange_weak(current, value, std::memory_order_relaxed)) {
  }
#endif
}

}  // namespace tensorbuf::kernels
