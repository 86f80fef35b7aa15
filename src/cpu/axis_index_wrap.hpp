// The kError check of check_axis_indices (cpu/axis_index_check.hpp) that also keeps what it
// read: every index wrapped into [0, s) and stored in a narrower type (uint16 for an axis of at
// most 2^16 elements), so a later pass streams 2 or 4 bytes per position instead of 8. The
// indices are read with non-temporal prefetches: they are read once, and the op's table should
// stay in the caches.
#pragma once

#include <cstdint>

#include "core/axis_index_result.hpp"
#include "cpu/axis_index_check.hpp"
#include "cpu/prefetch.hpp"
#include "kernels/axis_index.hpp"

namespace tensorbuf::cpu {

// Indices prefetched this many ahead of the check.
inline constexpr std::int64_t kWrapStreamAhead = 512;

// Checks indices[0, n) against an axis of `axis_size` (at most Small's range) and writes each
// wrapped index to wrapped[p]; under a bad index returns the smallest bad position (what
// `wrapped` holds is then unspecified).
template <class Index, class Small>
core::AxisIndexResult check_and_wrap_axis_indices(const Index* indices, std::int64_t n,
                                                  std::int64_t axis_size, Small* wrapped) {
  constexpr double kIndexNs = 0.6;  // a load, a compare and a narrow store per index, one core
  constexpr std::int64_t kPerLine = 64 / static_cast<std::int64_t>(sizeof(Index));
  return first_bad_axis_index(indices, n, kIndexNs, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t p = begin; p < end; ++p) {
      if ((p & (kPerLine - 1)) == 0) {
        prefetch_stream_at(indices, (p + kWrapStreamAhead) * std::int64_t{sizeof(Index)});
      }
      std::int64_t v = 0;
      if (!kernels::wrap_axis_index(indices[p], axis_size, &v)) return p;
      wrapped[p] = static_cast<Small>(v);
    }
    return std::int64_t{-1};
  });
}

}  // namespace tensorbuf::cpu
