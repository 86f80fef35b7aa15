// Row copies by index, AVX-512 path (x86 builds without TENSORBUF_PORTABLE, CPUs that have it:
// cpu/cpu_features.hpp): rows of whole 64-byte lines, one 64-byte load and store per line,
// the stores non-temporal when streaming. Included by cpu/row_gather.hpp only.
#pragma once

#include "core/isa.hpp"
#if defined(TENSORBUF_ISA_X86_64)
#include <immintrin.h>

#include <cstdint>

namespace tensorbuf::cpu::row_detail {

template <class Slice>
void prefetch_slice(const std::uint8_t* table, std::int64_t row_bytes, const Slice& slice,
                    std::int64_t i);

template <bool kStream, int kLines, class Slice>
__attribute__((target("avx512f"))) std::int64_t copy_lines_avx512(
    std::int64_t row_bytes, bool prefetch, const std::uint8_t* table, std::uint8_t* out,
    std::int64_t count, const Slice& slice, std::int64_t ahead) {
  const std::int64_t lines = kLines > 0 ? kLines : row_bytes / 64;
  for (std::int64_t i = 0; i < count; ++i) {
    if (prefetch && i + ahead < count) prefetch_slice(table, row_bytes, slice, i + ahead);
    std::int64_t at = 0;
    if (!slice(i, &at)) return i;
    const std::uint8_t* from = table + at * row_bytes;
    std::uint8_t* to = out + i * row_bytes;
    for (std::int64_t l = 0; l < lines; ++l) {
      const __m512i line = _mm512_loadu_si512(from + 64 * l);
      if constexpr (kStream) {
        _mm512_stream_si512(reinterpret_cast<__m512i*>(to + 64 * l), line);
      } else {
        _mm512_storeu_si512(to + 64 * l, line);
      }
    }
  }
  return count;
}

// cpu/row_gather.hpp's copy_rows for rows of whole lines; streamed stores are fenced before
// it returns.
template <bool kStream, class Slice>
std::int64_t copy_rows_avx512(std::int64_t row_bytes, bool prefetch, const std::uint8_t* table,
                              std::uint8_t* out, std::int64_t count, const Slice& slice,
                              std::int64_t ahead) {
  std::int64_t done = 0;
  switch (row_bytes) {
    case 64:
      done = copy_lines_avx512<kStream, 1>(row_bytes, prefetch, table, out, count, slice, ahead);
      break;
    case 128:
      done = copy_lines_avx512<kStream, 2>(row_bytes, prefetch, table, out, count, slice, ahead);
      break;
    case 256:
      done = copy_lines_avx512<kStream, 4>(row_bytes, prefetch, table, out, count, slice, ahead);
      break;
    default:
      done = copy_lines_avx512<kStream, 0>(row_bytes, prefetch, table, out, count, slice, ahead);
      break;
  }
  if constexpr (kStream) _mm_sfence();
  return done;
}

}  // namespace tensorbuf::cpu::row_detail

#endif  // TENSORBUF_ISA_X86_64
