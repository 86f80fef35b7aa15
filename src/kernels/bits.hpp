// Bit counting shared by every op, on the host and the device: the one SWAR popcount.
#pragma once

#include <cstdint>

#include "kernels/config.hpp"

namespace tensorbuf::kernels {

inline constexpr std::uint64_t kOnesPerByte = 0x0101010101010101ull;

// Byte j of the result: bytes 0..j of x added (little-endian), when every sum fits in a byte.
TENSORBUF_HOST_DEVICE inline std::uint64_t byte_prefix_sums(std::uint64_t x) {
  return x * kOnesPerByte;
}

// The bytes of x added, when the sum fits in a byte.
TENSORBUF_HOST_DEVICE inline int sum_bytes(std::uint64_t x) {
  return static_cast<int>(byte_prefix_sums(x) >> 56);
}

// Each byte of x replaced by its count of set bits (0..8).
TENSORBUF_HOST_DEVICE inline std::uint64_t byte_popcounts(std::uint64_t x) {
  x -= (x >> 1) & 0x5555555555555555ull;
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  return (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
}

// Set bits of x. The device has the instruction; on the host std::popcount is a libgcc call
// without -mpopcnt (baseline x86-64), and this is a handful of instructions inline.
TENSORBUF_HOST_DEVICE inline int popcount64(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __popcll(x);
#else
  return sum_bytes(byte_popcounts(x));
#endif
}

// Set bits of a word whose only set bits are byte top bits (0x80): one shift and one multiply.
TENSORBUF_HOST_DEVICE inline int count_top_bits(std::uint64_t bits) {
#if defined(__CUDA_ARCH__)
  return __popcll(bits);
#else
  return sum_bytes(bits >> 7);
#endif
}

}  // namespace tensorbuf::kernels
