// boolean_mask_update on the CPU, AVX-512 path (x86 builds without TENSORBUF_PORTABLE, CPUs that
// have it: cpu/cpu_features.hpp): the expand-load of 64 rows of 4 or 8 bytes, and mask words
// and counts by one compare. Included by src/cpu/boolean_mask_update.cpp only.
#pragma once

#include "core/isa.hpp"
#if defined(TENSORBUF_ISA_X86_64)
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "cpu/prefetch.hpp"
#include "kernels/bits.hpp"

namespace tensorbuf::cpu::mask_update_detail {

// AVX-512 has the op's own instruction: an expand-load puts consecutive updates into the lanes
// whose mask bit is set and keeps the tensor's element elsewhere. 64 rows of one element of
// 4 (or 8) bytes, update rows consecutive from `updates` (row j first). Returns the next j.
// kStream: `out` is 64-byte aligned and written with non-temporal stores. Both also prefetch
// the tensor and update bytes a few blocks ahead (cpu/prefetch.hpp: past the end is fine): the
// hardware prefetcher alone leaves these loads waiting (docs/boolean_mask_update.md).
constexpr std::int64_t kExpandTensorAhead = 2048;
constexpr std::int64_t kExpandUpdatesAhead = 1024;

template <bool kStream>
__attribute__((target("avx512f"))) inline void store_line(std::byte* out, __m512i v) {
  if constexpr (kStream) {
    _mm512_stream_si512(reinterpret_cast<__m512i*>(out), v);
  } else {
    _mm512_storeu_si512(out, v);
  }
}

template <bool kStream>
__attribute__((target("avx512f"))) std::int64_t expand64_b4(std::uint64_t bits,
                                                            const std::byte* tensor,
                                                            const std::byte* updates,
                                                            std::byte* out, std::int64_t j) {
  for (int line = 0; line < 4; ++line) prefetch_at(tensor, kExpandTensorAhead + 64 * line);
  prefetch_at(updates, 4 * j + kExpandUpdatesAhead);
  prefetch_at(updates, 4 * j + kExpandUpdatesAhead + 64);
  for (int q = 0; q < 4; ++q) {
    const auto k = static_cast<__mmask16>(bits >> (16 * q));
    const __m512i t = _mm512_loadu_si512(tensor + 64 * q);
    store_line<kStream>(out + 64 * q, _mm512_mask_expandloadu_epi32(t, k, updates + 4 * j));
    j += kernels::popcount64(k);
  }
  return j;
}

template <bool kStream>
__attribute__((target("avx512f"))) std::int64_t expand64_b8(std::uint64_t bits,
                                                            const std::byte* tensor,
                                                            const std::byte* updates,
                                                            std::byte* out, std::int64_t j) {
  for (int line = 0; line < 8; ++line) prefetch_at(tensor, kExpandTensorAhead + 64 * line);
  for (int line = 0; line < 4; ++line)
    prefetch_at(updates, 8 * j + kExpandUpdatesAhead + 64 * line);
  for (int q = 0; q < 8; ++q) {
    const auto k = static_cast<__mmask8>(bits >> (8 * q));
    const __m512i t = _mm512_loadu_si512(tensor + 64 * q);
    store_line<kStream>(out + 64 * q, _mm512_mask_expandloadu_epi64(t, k, updates + 8 * j));
    j += kernels::popcount64(k);
  }
  return j;
}

// Bit k: byte k of p is nonzero; one compare where the portable mask_word folds eight words.
__attribute__((target("avx512f,avx512bw"))) inline std::uint64_t mask_word_avx512(
    const std::uint8_t* p) {
  const __m512i v = _mm512_loadu_si512(p);
  return _mm512_test_epi8_mask(v, v);
}

__attribute__((target("avx512f,avx512bw,popcnt"))) inline std::int64_t count_true_avx512(
    const std::uint8_t* p, std::int64_t count) {
  std::int64_t n = 0;
  std::int64_t k = 0;
  for (; k + 64 <= count; k += 64) {
    const __m512i v = _mm512_loadu_si512(p + k);
    n += _mm_popcnt_u64(_mm512_test_epi8_mask(v, v));
  }
  if (k < count) {  // a masked load reads only the `count - k` bytes left
    const __mmask64 left = (std::uint64_t{1} << (count - k)) - 1;
    const __m512i v = _mm512_maskz_loadu_epi8(left, p + k);
    n += _mm_popcnt_u64(_mm512_test_epi8_mask(v, v));
  }
  return n;
}

}  // namespace tensorbuf::cpu::mask_update_detail

#endif  // TENSORBUF_ISA_X86_64
