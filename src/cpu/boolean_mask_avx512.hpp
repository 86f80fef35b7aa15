// boolean_mask on the CPU, AVX-512 path (x86 builds without TENSORBUF_PORTABLE, CPUs that have
// it: cpu/cpu_features.hpp): rows of 4 or 8 bytes, 64 mask entries at a time. One compare makes
// the 64 mask bytes a word; each vector of rows is packed by a register compress (the memory
// form of vpcompress is microcoded and slow on AMD) and stored at the output row. Included by
// src/cpu/boolean_mask.cpp only.
#pragma once

#include "core/isa.hpp"
#if defined(TENSORBUF_ISA_X86_64)
#include <immintrin.h>

#include <algorithm>
#include <cstdint>

#include "kernels/bits.hpp"

namespace tensorbuf::cpu::mask_detail {

// Mask entries [begin, begin + 64 * words) selected into target rows from j on, up to j_end;
// returns the next j. A full vector is stored while it ends at or before j_end: lanes past the
// packed rows are overwritten by the next store, and j_end (the next block's first row or the
// capacity) is never crossed; the last store is masked to the rows that fit.
template <int kRowBytes>
__attribute__((target("avx512f,avx512bw,popcnt"))) std::int64_t compress_rows_avx512(
    const std::uint8_t* mask, std::int64_t begin, std::int64_t words, const std::uint8_t* source,
    std::uint8_t* target, std::int64_t j, std::int64_t j_end) {
  constexpr int kLanes = 64 / kRowBytes;
  for (std::int64_t w = 0; w < words && j < j_end; ++w) {
    const std::int64_t m = begin + 64 * w;
    const __m512i mask_bytes = _mm512_loadu_si512(mask + m);
    const std::uint64_t bits = _mm512_test_epi8_mask(mask_bytes, mask_bytes);
    for (int q = 0; q < 64 / kLanes && bits != 0 && j < j_end; ++q) {
      const auto k = static_cast<std::uint32_t>((bits >> (kLanes * q)) & ((1ull << kLanes) - 1));
      if (k == 0) continue;
      const __m512i rows = _mm512_loadu_si512(source + (m + kLanes * q) * kRowBytes);
      __m512i packed;
      if constexpr (kRowBytes == 4) {
        packed = _mm512_maskz_compress_epi32(static_cast<__mmask16>(k), rows);
      } else {
        packed = _mm512_maskz_compress_epi64(static_cast<__mmask8>(k), rows);
      }
      const std::int64_t count = kernels::popcount64(k);
      std::uint8_t* at = target + j * kRowBytes;
      if (j + kLanes <= j_end) {
        _mm512_storeu_si512(at, packed);
      } else {
        const std::int64_t fit = std::min(count, j_end - j);
        const auto store = static_cast<std::uint32_t>((1ull << fit) - 1);
        if constexpr (kRowBytes == 4) {
          _mm512_mask_storeu_epi32(at, static_cast<__mmask16>(store), packed);
        } else {
          _mm512_mask_storeu_epi64(at, static_cast<__mmask8>(store), packed);
        }
      }
      j += count;
    }
  }
  return std::min(j, j_end);
}

}  // namespace tensorbuf::cpu::mask_detail

#endif  // TENSORBUF_ISA_X86_64
