// Copies of rows picked by index (gather on an axis, gather_nd), shared by their CPU backends.
// Rows read at random from a table beyond the caches are memory-latency reads: the row
// kAheadRows ahead is prefetched so that many are in flight. Rows of whole 64-byte lines are
// moved with AVX-512 loads and stores where the CPU has them (glibc's call per row, or an
// inlined copy of 16-byte moves, fills the out-of-order window with fewer rows), and into a
// large output with non-temporal stores (no read of each output line first).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cpu/cpu_features.hpp"
#include "cpu/prefetch.hpp"
#include "cpu/row_gather_avx512.hpp"

namespace tensorbuf::cpu {

/// Sizes at which the copies change strategy; tests lower them to reach every path on small
/// tensors.
struct RowGatherThresholds {
  std::int64_t prefetch_table_bytes = std::int64_t{8} << 20;  // tables this large: prefetch
  std::int64_t stream_output_bytes = std::int64_t{16} << 20;  // outputs this large: streamed
};

/// The thresholds in use.
RowGatherThresholds row_gather_thresholds();
/// Tests: replaces the thresholds (RowGatherThresholds{} restores the defaults).
void set_row_gather_thresholds(const RowGatherThresholds& thresholds);

/// How one call copies its rows, decided once for the call.
struct RowCopy {
  std::int64_t row_bytes = 0;
  bool prefetch = false;
  bool avx512 = false;  // rows of whole 64-byte lines, on a CPU with AVX-512
  bool stream = false;  // avx512, a large output whose rows all start on a 64-byte line
};

inline constexpr std::int64_t kAheadRows = 32;
inline constexpr std::int64_t kPrefetchRowBytes = 512;  // of a longer row, its start

inline RowCopy plan_row_copy(std::int64_t row_bytes, std::int64_t table_bytes, const void* out,
                             std::int64_t out_bytes) {
  const RowGatherThresholds thresholds = row_gather_thresholds();
  RowCopy copy;
  copy.row_bytes = row_bytes;
  copy.prefetch = table_bytes >= thresholds.prefetch_table_bytes;
#if defined(TENSORBUF_ISA_X86_64)
  copy.avx512 = row_bytes > 0 && row_bytes % 64 == 0 && cpu_features().avx512bw;
  copy.stream = copy.avx512 && out_bytes >= thresholds.stream_output_bytes &&
                reinterpret_cast<std::uintptr_t>(out) % 64 == 0;
#else
  (void)out;
  (void)out_bytes;
#endif
  return copy;
}

namespace row_detail {

template <class Slice>
void prefetch_slice(const std::uint8_t* table, std::int64_t row_bytes, const Slice& slice,
                    std::int64_t i) {
  std::int64_t at = 0;
  if (!slice(i, &at)) return;
  const std::int64_t bytes = row_bytes < kPrefetchRowBytes ? row_bytes : kPrefetchRowBytes;
  for (std::int64_t b = 0; b < bytes; b += 64) prefetch_at(table, at * row_bytes + b);
}

// The portable copy: one memcpy per row, of a fixed size for the common row sizes (inlined).
template <std::size_t kBytes, class Slice>
std::int64_t copy_rows_memcpy(const RowCopy& copy, const std::uint8_t* table, std::uint8_t* out,
                              std::int64_t count, const Slice& slice) {
  const auto bytes = kBytes > 0 ? kBytes : static_cast<std::size_t>(copy.row_bytes);
  for (std::int64_t i = 0; i < count; ++i) {
    if (copy.prefetch && i + kAheadRows < count) {
      prefetch_slice(table, copy.row_bytes, slice, i + kAheadRows);
    }
    std::int64_t at = 0;
    if (!slice(i, &at)) return i;
    // Rows of 0 bytes are still checked (kError); their buffers may be null.
    if (kBytes > 0 || bytes > 0) {
      std::memcpy(out + i * copy.row_bytes, table + at * copy.row_bytes, bytes);
    }
  }
  return count;
}

}  // namespace row_detail

/// Rows [0, count) of `out` (rows of copy.row_bytes): row i is table's row `slice(i, &at)`, for
/// the first i where slice returns false, that i is returned (its row unwritten); else count.
template <class Slice>
std::int64_t copy_rows(const RowCopy& copy, const std::uint8_t* table, std::uint8_t* out,
                       std::int64_t count, const Slice& slice) {
#if defined(TENSORBUF_ISA_X86_64)
  if (copy.avx512) {
    return copy.stream ? row_detail::copy_rows_avx512<true>(copy.row_bytes, copy.prefetch, table,
                                                            out, count, slice, kAheadRows)
                       : row_detail::copy_rows_avx512<false>(copy.row_bytes, copy.prefetch, table,
                                                             out, count, slice, kAheadRows);
  }
#endif
  using row_detail::copy_rows_memcpy;
  switch (copy.row_bytes) {
    case 1:
      return copy_rows_memcpy<1>(copy, table, out, count, slice);
    case 2:
      return copy_rows_memcpy<2>(copy, table, out, count, slice);
    case 4:
      return copy_rows_memcpy<4>(copy, table, out, count, slice);
    case 8:
      return copy_rows_memcpy<8>(copy, table, out, count, slice);
    case 16:
      return copy_rows_memcpy<16>(copy, table, out, count, slice);
    case 32:
      return copy_rows_memcpy<32>(copy, table, out, count, slice);
    case 64:
      return copy_rows_memcpy<64>(copy, table, out, count, slice);
    case 128:
      return copy_rows_memcpy<128>(copy, table, out, count, slice);
    case 256:
      return copy_rows_memcpy<256>(copy, table, out, count, slice);
    default:
      return copy_rows_memcpy<0>(copy, table, out, count, slice);
  }
}

}  // namespace tensorbuf::cpu
