#include "core/convert_backends.hpp"

#include <bit>

#include "core/isa.hpp"
#include "cpu/cpu_features.hpp"
#if defined(TENSORBUF_ISA_X86_64)
#include <immintrin.h>
#endif

namespace tensorbuf::cpu {
namespace {

// detail::float_to_half_bits with its three cases computed side by side and selected, so a
// loop over it has no branch and vectorises.
inline std::uint16_t half_bits(float value) {
  const std::uint32_t u = std::bit_cast<std::uint32_t>(value);
  const std::uint32_t sign = (u >> 16) & 0x8000u;
  const std::uint32_t f = u & 0x7fffffffu;
  // Normal: rebias the exponent, round to nearest even on the 13 dropped bits.
  const std::uint32_t normal = (f + 0xc8000fffu + ((f >> 13) & 1u)) >> 13;
  // Subnormal or zero: the float addition of 0.5 rounds the 10 mantissa bits to nearest even.
  const std::uint32_t magic = 126u << 23;
  const std::uint32_t subnormal =
      std::bit_cast<std::uint32_t>(std::bit_cast<float>(f) + std::bit_cast<float>(magic)) - magic;
  const std::uint32_t special = f > 0x7f800000u ? 0x7e00u | ((f >> 13) & 0x3ffu) : 0x7c00u;
  const std::uint32_t out = f >= 0x47800000u ? special : f < 0x38800000u ? subnormal : normal;
  return static_cast<std::uint16_t>(out | sign);
}

inline std::uint16_t bfloat16_bits(float value) {
  const std::uint32_t u = std::bit_cast<std::uint32_t>(value);
  const std::uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  const std::uint32_t quiet_nan = (u >> 16) | 0x40u;
  return static_cast<std::uint16_t>((u & 0x7fffffffu) > 0x7f800000u ? quiet_nan : rounded);
}

void half_portable(const float* src, std::uint16_t* dst, std::int64_t begin, std::int64_t end) {
  for (std::int64_t i = begin; i < end; ++i) dst[i] = half_bits(src[i]);
}

#if defined(TENSORBUF_ISA_X86_64)
// vcvtps2ph rounds to nearest even, overflows to inf and quiets a NaN keeping its payload's top
// bits: the scalar rule exactly (tests/core/test_convert_fast_path.cpp compares all of them).
// Long ranges write far more than the caches hold: their output goes around them (non-temporal
// stores save the read-for-ownership of every output line), as core/convert.cpp's uint8 path.
constexpr std::int64_t kStreamingElements = std::int64_t{1} << 20;

__attribute__((target("avx,f16c"))) void half_f16c(const float* src, std::uint16_t* dst,
                                                  std::int64_t begin, std::int64_t end) {
  std::int64_t i = begin;
  const bool stream = end - begin >= kStreamingElements;
  if (stream) {
    for (; i < end && reinterpret_cast<std::uintptr_t>(dst + i) % 16 != 0; ++i) {
      dst[i] = half_bits(src[i]);
    }
  }
  for (; i + 8 <= end; i += 8) {
    const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(src + i),
                                      _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    if (stream) {
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), h);
    } else {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), h);
    }
  }
  if (stream) _mm_sfence();  // the streamed stores are visible before the caller reads them
  for (; i < end; ++i) dst[i] = half_bits(src[i]);
}

// The bfloat16 rule on 16 floats at once: SSE2 has no 32 -> 16-bit narrowing, so the portable
// loop's vectorised form is slower than memory; vpmovdw narrows in one instruction. (The maskz
// forms with a full mask: g++ 12 warns that the plain forms' undefined source is uninitialised.)
__attribute__((target("avx512f"))) void bfloat16_avx512(const float* src, std::uint16_t* dst,
                                                         std::int64_t begin, std::int64_t end) {
  const __m512i round = _mm512_set1_epi32(0x7fff);
  const __m512i one = _mm512_set1_epi32(1);
  const __m512i magnitude = _mm512_set1_epi32(0x7fffffff);
  const __m512i infinity = _mm512_set1_epi32(0x7f800000);
  const __m512i quiet = _mm512_set1_epi32(0x40);
  const __mmask16 all = 0xffff;
  std::int64_t i = begin;
  const bool stream = end - begin >= kStreamingElements;
  if (stream) {
    for (; i < end && reinterpret_cast<std::uintptr_t>(dst + i) % 32 != 0; ++i) {
      dst[i] = bfloat16_bits(src[i]);
    }
  }
  for (; i + 16 <= end; i += 16) {
    const __m512i u = _mm512_loadu_si512(src + i);
    const __m512i high = _mm512_maskz_srli_epi32(all, u, 16);
    const __m512i rounded = _mm512_maskz_srli_epi32(
        all, _mm512_add_epi32(_mm512_add_epi32(u, round), _mm512_and_si512(high, one)), 16);
    const __mmask16 nan = _mm512_cmpgt_epu32_mask(_mm512_and_si512(u, magnitude), infinity);
    const __m512i bits = _mm512_mask_blend_epi32(nan, rounded, _mm512_or_si512(high, quiet));
    const __m256i narrow = _mm512_maskz_cvtepi32_epi16(all, bits);
    if (stream) {
      _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i), narrow);
    } else {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), narrow);
    }
  }
  if (stream) _mm_sfence();
  for (; i < end; ++i) dst[i] = bfloat16_bits(src[i]);
}
#endif

}  // namespace

void float_to_half_bits(const float* src, std::uint16_t* dst, std::int64_t begin,
                        std::int64_t end) {
#if defined(TENSORBUF_ISA_X86_64)
  if (cpu_features().f16c) {
    half_f16c(src, dst, begin, end);
    return;
  }
#endif
  half_portable(src, dst, begin, end);
}

void float_to_bfloat16_bits(const float* src, std::uint16_t* dst, std::int64_t begin,
                            std::int64_t end) {
#if defined(TENSORBUF_ISA_X86_64)
  if (cpu_features().avx512bw) {
    bfloat16_avx512(src, dst, begin, end);
    return;
  }
#endif
  for (std::int64_t i = begin; i < end; ++i) dst[i] = bfloat16_bits(src[i]);
}

}  // namespace tensorbuf::cpu
