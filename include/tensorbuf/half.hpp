// float16 (IEEE binary16) and bfloat16: storage types with round-to-nearest-even conversion
// from float, usable in host and device code. Arithmetic converts to float, computes, and
// rounds back, so a sequence of operations accumulates in the type itself.
#pragma once

#include <cstdint>
#include <cstring>

#include "tensorbuf/config.hpp"

namespace tensorbuf {
namespace detail {

TENSORBUF_HOST_DEVICE inline std::uint32_t float_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

TENSORBUF_HOST_DEVICE inline float bits_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// Round to nearest even, overflow to +-inf, NaN stays a (quiet) NaN.
TENSORBUF_HOST_DEVICE inline std::uint16_t float_to_half_bits(float value) {
  std::uint32_t f = float_bits(value);
  const std::uint32_t sign = (f >> 16) & 0x8000u;
  f &= 0x7fffffffu;
  std::uint32_t out;
  if (f >= 0x47800000u) {  // >= 65536, inf or NaN: already out of range
    out = f > 0x7f800000u ? 0x7e00u | ((f >> 13) & 0x3ffu) : 0x7c00u;
  } else if (f < 0x38800000u) {  // below the smallest normal half: subnormal or zero
    // Adding 0.5 aligns the 10 subnormal mantissa bits at the bottom of the float;
    // the float addition itself rounds to nearest even.
    const float magic = bits_float(126u << 23);
    out = float_bits(bits_float(f) + magic) - (126u << 23);
  } else {
    const std::uint32_t mantissa_odd = (f >> 13) & 1u;
    f += (static_cast<std::uint32_t>(15 - 127) << 23) + 0xfffu + mantissa_odd;
    out = f >> 13;  // a carry into the exponent rounds 65520.. up to inf
  }
  return static_cast<std::uint16_t>(out | sign);
}

TENSORBUF_HOST_DEVICE inline float half_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1fu;
  const std::uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24 is exact in float
    const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;
    return bits_float(sign | float_bits(magnitude));
  }
  if (exponent == 31) return bits_float(sign | 0x7f800000u | (mantissa << 13));
  return bits_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

TENSORBUF_HOST_DEVICE inline std::uint16_t float_to_bfloat16_bits(float value) {
  const std::uint32_t f = float_bits(value);
  if ((f & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((f >> 16) | 0x40u);
  const std::uint32_t rounding = 0x7fffu + ((f >> 16) & 1u);
  return static_cast<std::uint16_t>((f + rounding) >> 16);
}

TENSORBUF_HOST_DEVICE inline float bfloat16_bits_to_float(std::uint16_t b) {
  return bits_float(static_cast<std::uint32_t>(b) << 16);
}

}  // namespace detail

/// IEEE 754 binary16. Construction from float rounds to nearest even; values of magnitude
/// >= 65520 become +-inf; NaN stays NaN.
struct float16 {
  std::uint16_t bits = 0;

  float16() = default;
  TENSORBUF_HOST_DEVICE explicit float16(float f) : bits(detail::float_to_half_bits(f)) {}
  TENSORBUF_HOST_DEVICE static float16 from_bits(std::uint16_t b) {
    float16 h;
    h.bits = b;
    return h;
  }
  TENSORBUF_HOST_DEVICE explicit operator float() const { return detail::half_bits_to_float(bits); }
};

/// bfloat16 (the upper 16 bits of a float32). Construction from float rounds to nearest even.
struct bfloat16 {
  std::uint16_t bits = 0;

  bfloat16() = default;
  TENSORBUF_HOST_DEVICE explicit bfloat16(float f) : bits(detail::float_to_bfloat16_bits(f)) {}
  TENSORBUF_HOST_DEVICE static bfloat16 from_bits(std::uint16_t b) {
    bfloat16 h;
    h.bits = b;
    return h;
  }
  TENSORBUF_HOST_DEVICE explicit operator float() const {
    return detail::bfloat16_bits_to_float(bits);
  }
};

// Arithmetic and comparison through float; results round back to the 16-bit type.
#define TENSORBUF_HALF_OPERATORS(T)                                                         \
  TENSORBUF_HOST_DEVICE inline T operator+(T a, T b) { return T(float(a) + float(b)); }    \
  TENSORBUF_HOST_DEVICE inline T operator-(T a, T b) { return T(float(a) - float(b)); }    \
  TENSORBUF_HOST_DEVICE inline T operator*(T a, T b) { return T(float(a) * float(b)); }    \
  TENSORBUF_HOST_DEVICE inline T operator-(T a) { return T::from_bits(a.bits ^ 0x8000u); } \
  TENSORBUF_HOST_DEVICE inline bool operator<(T a, T b) { return float(a) < float(b); }    \
  TENSORBUF_HOST_DEVICE inline bool operator>(T a, T b) { return float(a) > float(b); }    \
  TENSORBUF_HOST_DEVICE inline bool operator==(T a, T b) { return float(a) == float(b); }  \
  TENSORBUF_HOST_DEVICE inline bool operator!=(T a, T b) { return float(a) != float(b); }
TENSORBUF_HALF_OPERATORS(float16)
TENSORBUF_HALF_OPERATORS(bfloat16)
#undef TENSORBUF_HALF_OPERATORS

}  // namespace tensorbuf
