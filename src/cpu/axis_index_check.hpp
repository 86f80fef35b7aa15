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

// The smallest position p of [0, n) where first_bad(begin, end) (the first bad position of a
// range, or -1) finds one, the ranges run as parallel chunks of about ns_per_index each.
template <class Index, class FirstBad>
core::AxisIndexResult first_bad_axis_index(const Index* indices, std::int64_t n,
                                           double ns_per_index, FirstBad&& first_bad) {
  const std::int64_t min_chunk = core::min_chunk_for(ns_per_index);
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

template <class Index>
core::AxisIndexResult check_axis_indices(const Index* indices, std::int64_t n,
                                         std::int64_t axis_size) {
  constexpr double kIndexNs = 0.5;  // one load and compare per index, on one core
  return first_bad_axis_index(indices, n, kIndexNs, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t p = begin; p < end; ++p) {
      std::int64_t v = 0;
      if (!kernels::wrap_axis_index(indices[p], axis_size, &v)) return p;
    }
    return std::int64_t{-1};
  });
}

}  // namespace tensorbuf::cpu
