// Atomic `*target = combine(*target, value)` for the scatter ops, on both executors: native
// device atomics where they exist (float/double/int32/int64 add, sub as add of the negation,
// int32/int64 min/max, float16 add on sm_70+, bfloat16 add on sm_80+, packed float4 / half2 /
// bfloat162 adds for runs of consecutive elements), a compare-and-swap loop
// otherwise (mul of every dtype, float min/max, 8/16-bit integers, on the containing 32-bit
// word for 1/2-byte types); on the host (the host executor) std::atomic_ref.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif

#include "kernels/config.hpp"
#include "kernels/scatter_nd_combine.hpp"

namespace tensorbuf::kernels {

// Same-size reinterpretation of the bits of a trivially copyable value.
template <class To, class From>
TENSORBUF_HOST_DEVICE inline To bits_as(From from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

#if defined(__CUDA_ARCH__)

// CAS loop on the 32-bit word containing a 1- or 2-byte element (device buffers come from
// the device allocator, whose blocks are at least 4-byte aligned and padded).
template <core::ScatterOp Op, class T>
__device__ inline void atomic_combine_narrow(T* target, T value) {
  using Bits = std::conditional_t<sizeof(T) == 1, std::uint8_t, std::uint16_t>;
  const auto address = reinterpret_cast<std::uintptr_t>(target);
  auto* word = reinterpret_cast<unsigned int*>(address & ~std::uintptr_t{3});
  const unsigned int shift = static_cast<unsigned int>(address & 3u) * 8u;
  const unsigned int mask = ((1u << (8u * sizeof(T))) - 1u) << shift;
  unsigned int old_word = *reinterpret_cast<volatile unsigned int*>(word);
  for (;;) {
    const T current = bits_as<T>(static_cast<Bits>((old_word & mask) >> shift));
    const T next = Combine<Op>::apply(current, value);
    const unsigned int next_bits = static_cast<unsigned int>(bits_as<Bits>(next)) << shift;
    const unsigned int new_word = (old_word & ~mask) | next_bits;
    if (new_word == old_word) return;
    const unsigned int seen = atomicCAS(word, old_word, new_word);
    if (seen == old_word) return;
    old_word = seen;
  }
}

// CAS loop for 4- and 8-byte elements.
template <core::ScatterOp Op, class T>
__device__ inline void atomic_combine_cas(T* target, T value) {
  using Bits = std::conditional_t<sizeof(T) == 4, unsigned int, unsigned long long>;
  auto* word = reinterpret_cast<Bits*>(target);
  Bits old_bits = *reinterpret_cast<volatile Bits*>(word);
  for (;;) {
    const Bits new_bits = bits_as<Bits>(Combine<Op>::apply(bits_as<T>(old_bits), value));
    if (new_bits == old_bits) return;
    const Bits seen = atomicCAS(word, old_bits, new_bits);
    if (seen == old_bits) return;
    old_bits = seen;
  }
}

// The compare-and-swap loop for T's size: on the element's own word (4, 8 bytes) or on the
// 32-bit word containing it (1, 2 bytes).
template <core::ScatterOp Op, class T>
__device__ inline void atomic_combine_by_cas(T* target, T value) {
  if constexpr (sizeof(T) >= 4) {
    atomic_combine_cas<Op>(target, value);
  } else {
    atomic_combine_narrow<Op>(target, value);
  }
}

template <core::ScatterOp Op, class T>
__device__ inline void atomic_combine_device(T* target, T value) {
  using core::ScatterOp;
  if constexpr (Op == ScatterOp::kUpdate) {
    *target = value;  // one of the duplicates wins (unspecified which)
  } else if constexpr (Op == ScatterOp::kAdd || Op == ScatterOp::kSub) {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      atomicAdd(target, Op == ScatterOp::kSub ? -value : value);  // a - b == a + (-b) in IEEE
    } else if constexpr (std::is_same_v<T, std::int32_t>) {
      const auto v = static_cast<unsigned int>(value);
      atomicAdd(reinterpret_cast<unsigned int*>(target), Op == ScatterOp::kSub ? 0u - v : v);
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
      const auto v = static_cast<unsigned long long>(value);
      atomicAdd(reinterpret_cast<unsigned long long*>(target),
                Op == ScatterOp::kSub ? 0ull - v : v);
    } else if constexpr (std::is_same_v<T, float16>) {
#if __CUDA_ARCH__ >= 700
      const std::uint16_t bits = Op == ScatterOp::kSub ? value.bits ^ 0x8000u : value.bits;
      atomicAdd(reinterpret_cast<__half*>(target), __ushort_as_half(bits));
#else
      atomic_combine_narrow<Op>(target, value);
#endif
    } else if constexpr (std::is_same_v<T, bfloat16>) {
#if __CUDA_ARCH__ >= 800
      const std::uint16_t bits = Op == ScatterOp::kSub ? value.bits ^ 0x8000u : value.bits;
      atomicAdd(reinterpret_cast<__nv_bfloat16*>(target), __ushort_as_bfloat16(bits));
#else
      atomic_combine_narrow<Op>(target, value);
#endif
    } else {
      atomic_combine_narrow<Op>(target, value);  // 8/16-bit integers
    }
  } else if constexpr (Op == ScatterOp::kMul) {
    atomic_combine_by_cas<Op>(target, value);  // no device has an atomic multiply
  } else {                                     // min, max
    if constexpr (std::is_same_v<T, std::int32_t>) {
      if constexpr (Op == ScatterOp::kMin) {
        atomicMin(reinterpret_cast<int*>(target), static_cast<int>(value));
      } else {
        atomicMax(reinterpret_cast<int*>(target), static_cast<int>(value));
      }
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
      if constexpr (Op == ScatterOp::kMin) {
        atomicMin(reinterpret_cast<long long*>(target), static_cast<long long>(value));
      } else {
        atomicMax(reinterpret_cast<long long*>(target), static_cast<long long>(value));
      }
    } else {
      atomic_combine_by_cas<Op>(target, value);  // floats: NaN-propagating min/max; 8/16-bit
    }
  }
}

#endif  // __CUDA_ARCH__

// *target = Combine<Op>(*target, value), atomically with respect to other calls.
template <core::ScatterOp Op, class T>
TENSORBUF_HOST_DEVICE inline void atomic_combine(T* target, T value) {
#if defined(__CUDA_ARCH__)
  atomic_combine_device<Op>(target, value);
#else
  std::atomic_ref<T> ref(*target);
  T current = ref.load(std::memory_order_relaxed);
  while (!ref.compare_exchange_weak(current, Combine<Op>::apply(current, value),
                                    std::memory_order_relaxed)) {
  }
#endif
}

// How many consecutive elements one packed device atomic combines for Op on T: add and sub
// of float32 go 4 at a time (float4 atomicAdd, sm_90), of float16 / bfloat16 2 at a time
// (half2 / bfloat162 atomicAdd); everything else 1. Each lane is still its own IEEE add.
template <core::ScatterOp Op, class T>
inline constexpr int kPackedLanes =
    Op != core::ScatterOp::kAdd && Op != core::ScatterOp::kSub ? 1
    : std::is_same_v<T, float>                                  ? 4
    : std::is_same_v<T, float16> || std::is_same_v<T, bfloat16> ? 2
                                                                : 1;

// target[k] = Combine<Op>(target[k], values[k]) for k < W, each lane atomically; both pointers
// aligned to W elements. One packed atomic on the device where kPackedLanes says so.
template <core::ScatterOp Op, class T, int W>
TENSORBUF_HOST_DEVICE inline void atomic_combine_packed(T* target, const T* values) {
#if defined(__CUDA_ARCH__)
  constexpr bool kSub = Op == core::ScatterOp::kSub;
  constexpr bool kFloat4 = W == 4 && std::is_same_v<T, float> && __CUDA_ARCH__ >= 900;
  constexpr bool kHalf2 = W == 2 && std::is_same_v<T, float16> && __CUDA_ARCH__ >= 700;
  constexpr bool kBFloat162 = W == 2 && std::is_same_v<T, bfloat16> && __CUDA_ARCH__ >= 800;
  // Negating a pair flips the sign bit of both halves, as the scalar path does.
  constexpr unsigned int kPairSign = kSub ? 0x80008000u : 0u;
  if constexpr (kFloat4) {
    float4 v = *reinterpret_cast<const float4*>(values);
    if constexpr (kSub) v = make_float4(-v.x, -v.y, -v.z, -v.w);
    atomicAdd(reinterpret_cast<float4*>(target), v);
  } else if constexpr (kHalf2) {
    const unsigned int bits = *reinterpret_cast<const unsigned int*>(values) ^ kPairSign;
    atomicAdd(reinterpret_cast<__half2*>(target), bits_as<__half2>(bits));
  } else if constexpr (kBFloat162) {
    const unsigned int bits = *reinterpret_cast<const unsigned int*>(values) ^ kPairSign;
    atomicAdd(reinterpret_cast<__nv_bfloat162*>(target), bits_as<__nv_bfloat162>(bits));
  } else {
    for (int k = 0; k < W; ++k) atomic_combine<Op>(target + k, values[k]);
  }
#else
  for (int k = 0; k < W; ++k) atomic_combine<Op>(target + k, values[k]);
#endif
}

}  // namespace tensorbuf::kernels
