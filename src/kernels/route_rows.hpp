// The distributed scatter's routing of a rank's rows on the executor's side (spec/distributed.md
// D3, "CUDA shards: bucketing on the device"), written over an executor (executor.hpp) so that
// CPU tests run it through the host executor:
//  1. each row's key: the rank owning its first index component (a binary search of the
//     layout's offsets), or `ranks` for a row out of bounds;
//  2. a stable sort of (key, row): rows grouped by owner in rank order, each owner's rows in
//     row order (the order the owner must apply them in), bad rows last, smallest first;
//  3. each owner's first position (one pass over the sorted keys);
//  4. the send buffers at the sorted positions: index rows as int64 with the owner's first row
//     taken from component 0, and the rows' slices.
// The host reads back ranks + 2 positions and, for a bad row, its row number and components.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/route_rows_plan.hpp"
#include "kernels/config.hpp"
#include "kernels/scatter_nd.hpp"
#include "kernels/scatter_nd_combine.hpp"

namespace tensorbuf::kernels {

using core::RoutedRows;

template <class Index>
struct OwnerKeyFunctor {
  const Index* indices;
  ScatterGeometry geometry;
  const std::int64_t* offsets;  // ranks + 1 entries
  int ranks;
  std::uint32_t* keys;
  std::int64_t* rows;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t r) const {
    rows[r] = r;
    std::int64_t slice = 0;
    const Index* index = indices + r * geometry.depth;
    if (!geometry.slice_of(index, &slice)) {
      keys[r] = static_cast<std::uint32_t>(ranks);
      return;
    }
    // The last rank whose first row is <= the row (ranks with no rows share the next offset).
    const auto first = static_cast<std::int64_t>(index[0]);
    int lo = 0;
    int hi = ranks;
    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      if (offsets[mid] <= first) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    keys[r] = static_cast<std::uint32_t>(lo);
  }
};

// starts[k] = the first sorted position whose key is >= k, for k in [0, ranks + 1]; position
// i in [0, n] writes the k in (key[i - 1], key[i]], so each k is written once.
struct KeyStartsFunctor {
  const std::uint32_t* keys;
  std::int64_t n;
  int ranks;
  std::int64_t* starts;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t i) const {
    const std::int64_t before = i == 0 ? -1 : static_cast<std::int64_t>(keys[i - 1]);
    const std::int64_t at = i == n ? ranks + 1 : static_cast<std::int64_t>(keys[i]);
    for (std::int64_t k = before + 1; k <= at; ++k) starts[k] = i;
  }
};

// Sorted position j (a row in bounds): its index row and slice into the send buffers.
template <class Index, class Word>
struct GatherRoutedFunctor {
  const Index* indices;
  const Word* slices;  // slice_words words per row
  const std::uint32_t* keys;
  const std::int64_t* rows;
  const std::int64_t* offsets;
  int depth;
  std::int64_t slice_words;
  std::int64_t* send_index;
  Word* send_slices;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t j) const {
    const std::int64_t r = rows[j];
    const std::int64_t first_row = offsets[keys[j]];
    for (int d = 0; d < depth; ++d) {
      const auto v = static_cast<std::int64_t>(indices[r * depth + d]);
      send_index[j * depth + d] = d == 0 ? v - first_row : v;
    }
    for (std::int64_t w = 0; w < slice_words; ++w) {
      send_slices[j * slice_words + w] = slices[r * slice_words + w];
    }
  }
};

// Routes plan.rows rows by the layout plan.offsets: the rows in bounds, grouped by owner, to the
// send buffers. Every buffer is on the executor's side (plan.on_device is the backend's
// concern). Index is plan.scatter.index_dtype's type.
template <class Index, class Executor>
RoutedRows route_rows(Executor& executor, const core::RouteRowsPlan& plan,
                      const core::RouteRowsBuffers& buffers) {
  const auto* indices = static_cast<const Index*>(buffers.indices);
  const std::int64_t rows = plan.rows;
  const std::span<const std::int64_t> offsets = plan.offsets;
  const std::size_t slice_bytes = plan.slice_bytes;
  const int ranks = static_cast<int>(offsets.size()) - 1;
  RoutedRows out;
  out.counts.assign(static_cast<std::size_t>(ranks), 0);
  if (rows == 0) return out;
  const ScatterGeometry geometry = executor_geometry(executor, plan.scatter);
  const auto count = static_cast<std::int64_t>(offsets.size());
  std::int64_t* layout = executor.template scratch<std::int64_t>(count);
  store_values(executor, layout, count,
               [&](std::int64_t k) { return offsets[static_cast<std::size_t>(k)]; });
  auto* keys = executor.template scratch<std::uint32_t>(rows);
  auto* order = executor.template scratch<std::int64_t>(rows);
  executor.for_each_index(rows,
                          OwnerKeyFunctor<Index>{indices, geometry, layout, ranks, keys, order});
  executor.sort_by_key(keys, order, rows);
  auto* starts = executor.template scratch<std::int64_t>(ranks + 2);
  executor.for_each_index(rows + 1, KeyStartsFunctor{keys, rows, ranks, starts});
  std::vector<std::int64_t> host_starts(static_cast<std::size_t>(ranks) + 2);
  executor.copy_to_host(host_starts.data(), starts, host_starts.size() * sizeof(std::int64_t));
  for (int p = 0; p < ranks; ++p) out.counts[p] = host_starts[p + 1] - host_starts[p];
  const std::int64_t kept = host_starts[static_cast<std::size_t>(ranks)];
  if (kept < rows) {  // the smallest bad row sorts first among the bad ones (a stable sort)
    out.first_bad = executor.read_value(order + kept);
    std::vector<Index> components(static_cast<std::size_t>(geometry.depth));
    executor.copy_to_host(components.data(), indices + out.first_bad * geometry.depth,
                          components.size() * sizeof(Index));
    out.bad_components.assign(components.begin(), components.end());
  }
  auto gather = [&](auto word) {
    using Word = decltype(word);
    const auto words = static_cast<std::int64_t>(slice_bytes / sizeof(Word));
    executor.for_each_index(kept, GatherRoutedFunctor<Index, Word>{
                                      indices, static_cast<const Word*>(buffers.slices), keys,
                                      order, layout, geometry.depth, words, buffers.send_index,
                                      static_cast<Word*>(buffers.send_slices)});
  };
  // Whole 32-bit words when the slice allows (device rows are padded to words, offsets too).
  if (slice_bytes % 4 == 0) {
    gather(std::uint32_t{});
  } else {
    gather(std::uint8_t{});
  }
  return out;
}

}  // namespace tensorbuf::kernels
