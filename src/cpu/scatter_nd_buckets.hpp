// The CPU scatter for many rows into a table beyond the cache: the rows are bucketed by output
// block (kBlockBytes of whole slices), then each block is copied (out of place) and updated
// while it is in cache, instead of a cache miss per row.
//  1. row chunks, in parallel: check each row and count the rows per block (under kError a chunk
//     stops at its first bad row; the smallest one wins and nothing is written);
//  2. prefix sums give each (block, chunk) its place, block-major, so a block's rows stay in row
//     order (a stable counting sort); row chunks, in parallel: fill the entries;
//  3. blocks, claimed one at a time by the threads: copy the block, apply its entries in order.
// Every output element is written by one block's task in row order: the result does not
// depend on the thread count.
#pragma once

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <vector>

#include "core/parallel.hpp"
#include "core/scatter_nd_plan.hpp"
#include "cpu/buckets.hpp"
#include "cpu/scatter_nd_rows.hpp"

namespace tensorbuf::cpu::scatter_buckets {

using core::ScatterNdBuffers;
using core::ScatterNdPlan;
using core::ScatterNdResult;
using core::ScatterOp;
using kernels::ScatterGeometry;

using buckets::kBlockBytes;

// Costs per row on one core (tensorbuf bench --sweep, one thread: 5.4-6.9 ns per one-element
// row in all): counting it, writing its entry into its bucket, applying it with its block in
// cache.
inline constexpr double kCountNsPerRow = 1.0;
inline constexpr double kFillNsPerRow = 3.0;
inline constexpr double kApplyNsPerRow = 3.0;

// Slices per block, a power of two (a shift, not a division per row), and the block count.
struct Layout {
  int shift = 0;
  std::int64_t blocks = 0;
};

inline Layout layout_of(const ScatterNdPlan& plan, std::size_t element_bytes,
                        std::int64_t block_bytes) {
  const std::int64_t block_elements = block_bytes / static_cast<std::int64_t>(element_bytes);
  const auto per_block = static_cast<std::uint64_t>(block_elements / plan.slice_size);
  Layout layout;
  layout.shift = std::bit_width(per_block) - 1;  // per_block >= 1 (applies())
  layout.blocks = ((plan.num_slices - 1) >> layout.shift) + 1;
  return layout;
}

// Only slices that fit a block are bucketed (larger ones are split between owners), and only
// with rows enough for the per-block counters (a huge sparse table would be mostly counters).
inline bool applies(const ScatterNdPlan& plan, std::size_t element_bytes,
                    std::int64_t block_bytes = kBlockBytes) {
  if (plan.num_slices <= 0 || plan.slice_size <= 0 || plan.num_rows <= 0 ||
      plan.slice_size > block_bytes / static_cast<std::int64_t>(element_bytes)) {
    return false;
  }
  return layout_of(plan, element_bytes, block_bytes).blocks / 4 <= plan.num_rows + 1024;
}

// The estimated time on one thread, in ns (per-block and per-chunk bookkeeping included).
inline double serial_ns(const ScatterNdPlan& plan, bool copy, std::size_t element_bytes,
                        std::int64_t block_bytes, double element_ns, double copy_ns_per_byte) {
  const double rows = static_cast<double>(plan.num_rows);
  const double table_bytes =
      static_cast<double>(plan.num_elements) * static_cast<double>(element_bytes);
  const double blocks = static_cast<double>(layout_of(plan, element_bytes, block_bytes).blocks);
  return rows * (kCountNsPerRow + kFillNsPerRow + kApplyNsPerRow) +
         rows * static_cast<double>(plan.slice_size) * element_ns + blocks * 20.0 +
         (copy ? 2 * table_bytes * copy_ns_per_byte : 0.0);
}

using buckets::Entry;
using buckets::Scratch;

template <ScatterOp Op, class T, class Index, class Id>
ScatterNdResult run_with(const ScatterNdPlan& plan, const ScatterNdBuffers& buffers,
                         const ScatterGeometry& geometry, int threads, std::int64_t block_bytes) {
  const auto* indices = static_cast<const Index*>(buffers.indices);
  const auto* updates = static_cast<const T*>(buffers.updates);
  const auto* tensor = static_cast<const T*>(buffers.tensor);
  auto* out = static_cast<T*>(buffers.out);
  const bool copy = buffers.out != buffers.tensor;
  const std::int64_t n = plan.num_rows;
  const std::int64_t s = plan.slice_size;
  const Layout layout = layout_of(plan, sizeof(T), block_bytes);
  const bool stop_at_bad = plan.policy == OutOfBoundsPolicy::kError;
  const std::int64_t blocks = layout.blocks;
  const int shift = layout.shift;

  // Passes 1 and 2 cut the rows the same way (same n and min_chunk); a nested call runs one.
  const std::int64_t min_rows = std::max<std::int64_t>(1, n / threads);
  const int chunks = core::chunk_count(n, min_rows);
  std::vector<std::int64_t> counts(static_cast<std::size_t>(chunks * blocks), 0);
  std::vector<std::int64_t> first_bad(static_cast<std::size_t>(chunks), -1);

  // 1. Check and count.
  core::parallel_for_chunks(n, min_rows, [&](int c, std::int64_t begin, std::int64_t end) {
    std::int64_t* count = counts.data() + c * blocks;
    for (std::int64_t row = begin; row < end; ++row) {
      std::int64_t slice = 0;
      if (geometry.slice_of(indices + row * plan.depth, &slice)) {
        ++count[slice >> shift];
        continue;
      }
      if (first_bad[static_cast<std::size_t>(c)] < 0) {
        first_bad[static_cast<std::size_t>(c)] = row;
        if (stop_at_bad) break;
      }
    }
  });
  for (int c = 0; c < chunks; ++c) {
    const std::int64_t bad = first_bad[static_cast<std::size_t>(c)];
    if (bad >= 0 && stop_at_bad) return scatter_rows::bad_row(plan, indices, bad);
  }

  // 2. Places, block-major and chunk-minor; then fill.
  const std::vector<std::int64_t> block_begin = buckets::place_by_block(counts, chunks, blocks);
  const std::int64_t running = block_begin[static_cast<std::size_t>(blocks)];

  auto apply_all = [&](auto entry_tag, auto make, auto apply) {
    using E = typename decltype(entry_tag)::type;
    const Scratch scratch(static_cast<std::size_t>(std::max<std::int64_t>(running, 1)) * sizeof(E));
    E* entries = static_cast<E*>(scratch.data());
    core::parallel_for_chunks(n, min_rows, [&](int c, std::int64_t begin, std::int64_t end) {
      std::int64_t* place = counts.data() + c * blocks;
      for (std::int64_t row = begin; row < end; ++row) {
        std::int64_t slice = 0;
        if (!geometry.slice_of(indices + row * plan.depth, &slice)) continue;
        entries[place[slice >> shift]++] = make(slice, row);
      }
    });
    // 3. Blocks, claimed one at a time.
    buckets::for_each_block(threads, blocks, [&](std::int64_t b) {
      if (copy) {
        const std::int64_t first = b << shift;
        const std::int64_t last = std::min(plan.num_slices, (b + 1) << shift);
        std::memcpy(out + first * s, tensor + first * s,
                    static_cast<std::size_t>((last - first) * s) * sizeof(T));
      }
      buckets::apply_block(entries, block_begin, b, apply);
    });
  };

  if (s == 1) {
    using E = Entry<Id, T>;
    apply_all(
        std::type_identity<E>{},
        [&](std::int64_t slice, std::int64_t row) {
          return E{static_cast<Id>(slice), updates[row]};
        },
        [&](const E& e) {
          T& target = out[static_cast<std::int64_t>(e.slice)];
          target = kernels::Combine<Op>::apply(target, e.payload);
        });
  } else {
    using E = Entry<Id, Id>;
    apply_all(
        std::type_identity<E>{},
        [&](std::int64_t slice, std::int64_t row) {
          return E{static_cast<Id>(slice), static_cast<Id>(row)};
        },
        [&](const E& e) {
          scatter_rows::apply_row<Op>(out + static_cast<std::int64_t>(e.slice) * s,
                                      updates + static_cast<std::int64_t>(e.payload) * s, s);
        });
  }
  return ScatterNdResult{};
}

// Runs the bucketed scatter on up to `threads` threads, blocks of `block_bytes` (tests pass small
// ones); applies(plan, sizeof(T), block_bytes) must hold. Under kError nothing is written when a
// row is bad.
template <ScatterOp Op, class T, class Index>
ScatterNdResult run(const ScatterNdPlan& plan, const ScatterNdBuffers& buffers,
                    const ScatterGeometry& geometry, int threads, std::int64_t block_bytes) {
  constexpr auto kId32 = static_cast<std::int64_t>(std::numeric_limits<std::uint32_t>::max());
  if (plan.num_rows < kId32 && plan.num_slices < kId32) {
    return run_with<Op, T, Index, std::uint32_t>(plan, buffers, geometry, threads, block_bytes);
  }
  return run_with<Op, T, Index, std::uint64_t>(plan, buffers, geometry, threads, block_bytes);
}

}  // namespace tensorbuf::cpu::scatter_buckets
