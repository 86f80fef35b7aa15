// boolean_mask on the CPU, AVX-512 path (x86 builds without TENSORBUF_PORTABLE, CPUs that have
// it: cpu/cpu_features.hpp): rows of 4, 8, 16 or 32 bytes, 64 mask entries at a time. The count
// pass makes each 64 mask bytes a word of bits (one compare); each vector of rows is packed by a
// register compress (the memory form of vpcompress is microcoded and slow on AMD) and stored at
// the output row. Included by src/cpu/boolean_mask.cpp only.
#pragma once

#include "core/isa.hpp"
#if defined(TENSORBUF_ISA_X86_64)
#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "cpu/prefetch.hpp"
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

// The qword lanes of a vector of 16- or 32-byte rows that row bits `k` pick: each row's bit
// repeated over its 2 or 4 lanes.
template <int kRowBytes>
constexpr std::uint32_t row_lanes(std::uint32_t k) {
  constexpr int kQwords = kRowBytes / 8;
  std::uint32_t lanes = 0;
  for (int r = 0; r < 8 / kQwords; ++r) {
    if ((k >> r) & 1u) lanes |= ((1u << kQwords) - 1) << (kQwords * r);
  }
  return lanes;
}

template <int kRowBytes>
struct RowLaneTable {
  std::uint8_t lanes[1 << (64 / kRowBytes)] = {};
  constexpr RowLaneTable() {
    for (std::uint32_t k = 0; k < (1u << (64 / kRowBytes)); ++k) {
      lanes[k] = static_cast<std::uint8_t>(row_lanes<kRowBytes>(k));
    }
  }
};

// The rows picked by `words` words of mask bits (pack_mask_avx512), from `source` (the row of
// the first bit) packed into `target`, at most `limit` rows; returns how many were written. A
// full vector is stored while it ends within the limit: lanes past the packed rows are
// overwritten by the next store, and nothing past `limit` rows is touched; the last store is
// masked to the rows that fit. Rows of 4 and 8 bytes are compressed by dwords and qwords, rows
// of 16 and 32 bytes by qwords with each row's bit spread over its lanes; vectors of narrow
// rows with no true row are skipped (rare at any density where this runs, unlike a pair of
// wide rows, where the branch would be unpredictable).
template <int kRowBytes>
__attribute__((target("avx512f,avx512bw,popcnt"))) std::int64_t compress_rows_avx512(
    const std::uint64_t* bits, std::int64_t words, const std::uint8_t* source, std::uint8_t* target,
    std::int64_t limit, std::int64_t prefetch = 0) {
  static_assert(kRowBytes == 4 || kRowBytes == 8 || kRowBytes == 16 || kRowBytes == 32);
  constexpr int kLanes = 64 / kRowBytes;  // rows per vector
  constexpr int kQwords = kRowBytes / 8;  // qword lanes per row (wide rows)
  static constexpr RowLaneTable<(kRowBytes >= 16 ? kRowBytes : 16)> kTable{};
  std::int64_t j = 0;
  for (std::int64_t w = 0; w < words && j < limit; ++w) {
    const std::uint64_t word = bits[w];
    if (prefetch > 0) {
      for (int line = 0; line < kRowBytes; ++line) {
        prefetch_at(source, 64 * w * kRowBytes + prefetch + 64 * line);
      }
    }
    for (int q = 0; q < 64 / kLanes && j < limit; ++q) {
      const auto k = static_cast<std::uint32_t>((word >> (kLanes * q)) & ((1ull << kLanes) - 1));
      if constexpr (kLanes >= 8) {
        if (k == 0) continue;
      }
      const __m512i rows = _mm512_loadu_si512(source + (64 * w + kLanes * q) * kRowBytes);
      __m512i packed;
      if constexpr (kRowBytes == 4) {
        packed = _mm512_maskz_compress_epi32(static_cast<__mmask16>(k), rows);
      } else if constexpr (kRowBytes == 8) {
        packed = _mm512_maskz_compress_epi64(static_cast<__mmask8>(k), rows);
      } else {
        packed = _mm512_maskz_compress_epi64(static_cast<__mmask8>(kTable.lanes[k]), rows);
      }
      const std::int64_t count = kernels::popcount64(k);
      std::uint8_t* at = target + j * kRowBytes;
      if (j + kLanes <= limit) {
        _mm512_storeu_si512(at, packed);
      } else {
        const std::int64_t fit = std::min(count, limit - j);
        if constexpr (kRowBytes == 4) {
          const auto store = static_cast<std::uint32_t>((1ull << fit) - 1);
          _mm512_mask_storeu_epi32(at, static_cast<__mmask16>(store), packed);
        } else {
          const auto store = static_cast<std::uint32_t>((1ull << (fit * kQwords)) - 1);
          _mm512_mask_storeu_epi64(at, static_cast<__mmask8>(store), packed);
        }
      }
      j += count;
    }
  }
  return std::min(j, limit);
}

// compress_rows_avx512 for outputs beyond the caches: the rows are packed into a stage on the
// stack that keeps the output's offset within its 64-byte line, and each whole line of the
// output is written from the stage by one non-temporal store (no read of the line first). The
// partial lines at both ends, which the rows before and after `target` may share, take
// ordinary stores of this call's bytes only. The caller fences (streaming_fence) before the
// output is read.
template <int kRowBytes>
__attribute__((target("avx512f,avx512bw,popcnt"))) std::int64_t compress_rows_streaming_avx512(
    const std::uint64_t* bits, std::int64_t words, const std::uint8_t* source, std::uint8_t* target,
    std::int64_t limit, std::int64_t prefetch = 0) {
  constexpr std::int64_t kGroupWords = std::max(1, 8192 / (64 * kRowBytes));
  // A group's rows after up to 63 carried bytes, and the last full store's overhang.
  alignas(64) std::uint8_t stage[64 + kGroupWords * 64 * kRowBytes + 64];
  std::int64_t pending = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(target) & 63);
  std::int64_t base = -pending;  // the output offset of stage[0]
  std::int64_t j = 0;
  for (std::int64_t w = 0; w < words && j < limit; w += kGroupWords) {
    const std::int64_t group = std::min(kGroupWords, words - w);
    const std::int64_t rows = compress_rows_avx512<kRowBytes>(
        bits + w, group, source + 64 * w * kRowBytes, stage + pending, limit - j, prefetch);
    j += rows;
    const std::int64_t filled = pending + rows * kRowBytes;
    const std::int64_t full = filled / 64 * 64;
    std::int64_t at = 0;
    if (base < 0 && full > 0) {  // the first line, shared with the bytes before target
      std::memcpy(target, stage - base, static_cast<std::size_t>(64 + base));
      at = 64;
    }
    for (; at < full; at += 64) {
      _mm512_stream_si512(reinterpret_cast<__m512i*>(target + (base + at)),
                          _mm512_load_si512(stage + at));
    }
    _mm512_store_si512(stage, _mm512_load_si512(stage + full));
    base += full;
    pending = filled - full;
  }
  const std::int64_t skip = std::max<std::int64_t>(0, -base);  // bytes of the line before target
  if (pending > skip) {
    std::memcpy(target + (base + skip), stage + skip, static_cast<std::size_t>(pending - skip));
  }
  return std::min(j, limit);
}

}  // namespace tensorbuf::cpu::mask_detail

#endif  // TENSORBUF_ISA_X86_64
