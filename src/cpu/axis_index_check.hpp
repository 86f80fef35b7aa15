// The CPU check of the axis-indexed ops (gather, gather_elements, scatter_elements) under
// kError: the smallest position of indices whose value is outside [-s, s), before anything is
// written, in parallel chunks (chunks are in position order, so the first chunk that found one
// holds the smallest whatever the thread count).
#pragma once

#include <cstdint>
#include <vector>

#include "core/axis_index_result.hpp"
#include "core/parallel.hpp"
#include "kernels/axis_index.hpp"

namespace tensorbuf::cpu {

template <class Index>
core::AxisIndexResult check_axis_indices(const Index* indices, std::int64_t n,
                                         std::int64_t axis_size) {
  constexpr double kIndexNs = 0.5;  // one load and compare per index, on one core
  auto first_bad = [&](std::int64_t begin, std::int64_t end) -> std::int64_t {
    for (std::int64_t p = begin; p < end; ++p) {
      std::int64_t v = 0;
      if (!kernels::wrap_axis_index(indices[p], axis_size, &v)) return p;
    }
    return -1;
  };
  const std::int64_t min_chunk = core::min_chunk_for(kIndexNs);
  const int chunks = core::chunk_count(n, min_chunk);
  std::int64_t bad = -1;
  if (chunks <= 1) {
    bad = first_bad(0, n);
  } else {
    std::vector<std::int64_t> found(static_cast<std::size_t>(chunks), -1);
    core::parallel_for_chunks(n, min_chunk, [&](int c, std::int64_t begin, std::int64_t end) {
      found[static_cast<std::size_t>(c)] = first_bad(begin, end);
    });
    for (const std::int64_t p : found) {
      if (p >= 0) {
        bad = p;
        break;
      }
    }
  }
  core::AxisIndexResult result;
  if (bad >= 0) {
    result.first_bad_index = bad;
    result.bad_value = static_cast<std::int64_t>(indices[bad]);
  }
  return result;
}

}  // namespace tensorbuf::cpu
