// boolean_mask on the CPU, AVX-512 path (x86 builds without TENSORBUF_PORTABLE, CPUs that have
// it: cpu/cpu_features.hpp): rows of 4 or 8 bytes, 64 mask entries at a time. The count pass
// makes each 64 mask bytes a word of bits (one compare); each vector of rows is packed by a
// register compress (the memory form of vpcompress is microcoded and slow on AMD) and stored at
// the output row. Included by src/cpu/boolean_mask.cpp only.
#pragma once

#include "core/isa.hpp"
#if defined(TENSORBUF_ISA_X86_64)
#include <immintrin.h>

#include <algorithm>
#include <cstdint>

#include "kernels/bits.hpp"

namespace tensorbuf::cpu::mask_detail {

// The mask entries [begin, begin + 64 * words) as words of bits (bit i of word w: entry
// begin + 64 * w + i is true), so that the copy pass reads 1/8 of the mask's bytes again;
// returns their true count.
__attribute__((target("avx512f,avx512bw,popcnt"))) inline std::int64_t pack_mask_avx512(
    const std::uint8_t* mask, std::int64_t begin, std::int64_t words, std::uint64_t* bits) {
  std::int64_t n = 0;
  for (std::int64_t w = 0; w < words; ++w) {
    const __m512i mask_bytes = _mm512_loadu_si512(mask + begin + 64 * w);
    const std::uint64_t word = _mm512_test_epi8_mask(mask_bytes, mask_bytes);
    bits[w] = word;
    n += kernels::popcount64(word);
  }
  return n;
}

// The rows picked by `words` words of mask bits (pack_mask_avx512), from `source` (the row of
// the first bit) packed into `target`, at most `limit` rows; returns how many were written. A
// full vector is stored while it ends within the limit: lanes past the packed rows are
// overwritten by the next store, and nothing past `limit` rows is touched; the last store is
// masked to the rows that fit.
template <int kRowBytes>
__attribute__((target("avx512f,avx512bw,popcnt"))) std::int64_t compress_rows_avx512(
    const std::uint64_t* bits, std::int64_t words, const std::uint8_t* source, std::uint8_t* target,
    std::int64_t limit) {
  constexpr int kLanes = 64 / kRowBytes;
  std::int64_t j = 0;
  for (std::int64_t w = 0; w < words && j < limit; ++w) {
    const std::uint64_t word = bits[w];
    for (int q = 0; q < 64 / kLanes && j < limit; ++q) {
      const auto k = static_cast<std::uint32_t>((word >> (kLanes * q)) & ((1ull << kLanes) - 1));
      if (k == 0) continue;
      const __m512i rows = _mm512_loadu_si512(source + (64 * w + kLanes * q) * kRowBytes);
      __m512i packed;
      if constexpr (kRowBytes == 4) {
        packed = _mm512_maskz_compress_epi32(static_cast<__mmask16>(k), rows);
      } else {
        packed = _mm512_maskz_compress_epi64(static_cast<__mmask8>(k), rows);
      }
      const std::int64_t count = kernels::popcount64(k);
      std::uint8_t* at = target + j * kRowBytes;
      if (j + kLanes <= limit) {
        _mm512_storeu_si512(at, packed);
      } else {
        const std::int64_t fit = std::min(count, limit - j);
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
  return std::min(j, limit);
}

}  // namespace tensorbuf::cpu::mask_detail

#endif  // TENSORBUF_ISA_X86_64
