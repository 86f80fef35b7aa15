// scatter_elements into a tensor beyond the cache: the positions are bucketed by output block,
// then each block is copied (out of place) and updated while it is in cache, instead of a cache
// miss per position. The positions are cut into tiles, each bucketed on its own, so the indices
// are read once and a tile's targets stay in cache between its two passes:
//  1. tiles, claimed one at a time: each position's target and its block counted (kError: the
//     tile stops at its first bad index; kDrop: bad indices are dropped), then the tile's
//     entries placed block-major (a stable counting sort) as a 16-bit offset in the block and
//     the update, in separate arrays;
//  2. under kError, the first bad index of the first tile that found one (nothing written);
//  3. blocks, claimed one at a time: copy the block, apply each tile's entries for it in tile
//     order.
// Every target sees its updates in row-major order, whatever the thread count.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/axis_index_result.hpp"
#include "core/elements_backends.hpp"
#include "core/parallel.hpp"
#include "cpu/buckets.hpp"
#include "cpu/cache_size.hpp"
#include "cpu/elements_geometry.hpp"
#include "kernels/axis_index.hpp"
#include "kernels/scatter_nd_combine.hpp"

namespace tensorbuf::cpu::scatter_elements_buckets {

// Below this the tensor stays in the L2 caches and a direct update is as fast.
inline constexpr std::int64_t kMinTensorBytes = std::int64_t{2} << 20;
// Positions per tile: large enough that a block's entries from one tile run long (a block reads
// one run per tile, each a fresh stream), small enough that the tile's targets (8 bytes each)
// mostly stay in L2 between its two passes. Measured best at 2^17 (2^15: 1.4x slower, 2^19:
// 1.3x).
inline constexpr std::int64_t kTilePositions = std::int64_t{1} << 17;
// An entry's target is a 16-bit offset in its block.
inline constexpr std::int64_t kMaxBlockElements = std::int64_t{1} << 16;

// Bucketed when the tensor is beyond the last-level cache (within it the direct path, its
// targets prefetched, is faster: 0.5-0.7x the time at 1-16 MiB, one lane or many) and the
// positions are not so few that the per-block counters and the pass over them would dominate.
inline bool applies(const core::ScatterElementsPlan& plan, std::size_t element_bytes) {
  const std::int64_t bytes = plan.num_elements * static_cast<std::int64_t>(element_bytes);
  return bytes >= kMinTensorBytes && bytes > last_level_cache_bytes() &&
         plan.layout.num_positions >= 16 * (bytes / buckets::kBlockBytes + 1);
}

// Tiles of kTilePositions, or more where there are many blocks (each tile keeps a place per
// block).
inline std::int64_t tile_positions(std::int64_t blocks) {
  return std::max(kTilePositions, 8 * blocks);
}

// Runs the bucketed scatter on up to `threads` threads with blocks of `block_bytes` (at most
// kMaxBlockElements elements) and tiles of `tile` positions (0: tile_positions(blocks); tests
// pass small ones); `check` (kError) reports the first bad index and writes nothing, else bad
// indices are dropped.
template <core::ScatterOp Op, class T, class Index>
core::AxisIndexResult run(const core::ScatterElementsPlan& plan,
                          const core::ScatterElementsBuffers& buffers, int threads,
                          std::int64_t block_bytes, std::int64_t tile, bool check) {
  const auto* indices = static_cast<const Index*>(buffers.indices);
  const auto* updates = static_cast<const T*>(buffers.updates);
  const auto* tensor = static_cast<const T*>(buffers.tensor);
  auto* out = static_cast<T*>(buffers.out);
  const bool copy = buffers.out != buffers.tensor;
  const std::int64_t n = plan.layout.num_positions;
  const std::int64_t axis_size = plan.layout.axis_size;
  const std::int64_t axis_stride = plan.layout.axis_stride;
  const auto per_block = static_cast<std::uint64_t>(
      std::min(block_bytes / std::int64_t{sizeof(T)}, kMaxBlockElements));
  const int shift = std::bit_width(per_block) - 1;
  const std::int64_t mask = (std::int64_t{1} << shift) - 1;
  const std::int64_t blocks = ((plan.num_elements - 1) >> shift) + 1;
  if (tile <= 0) tile = tile_positions(blocks);
  const std::int64_t tiles = (n - 1) / tile + 1;
  const auto places = static_cast<std::size_t>(blocks) + 1;
  const HostElementsGeometry geometry(plan.layout);

  const buckets::Scratch offsets_scratch(static_cast<std::size_t>(n) * sizeof(std::uint16_t));
  const buckets::Scratch values_scratch(static_cast<std::size_t>(n) * sizeof(T));
  auto* offsets = static_cast<std::uint16_t*>(offsets_scratch.data());
  T* values = static_cast<T*>(values_scratch.data());
  // tile_begin[t * places + b]: tile t's first entry for block b, from the tile's start.
  std::vector<std::uint32_t> tile_begin(static_cast<std::size_t>(tiles) * places);
  std::vector<std::int64_t> bad(static_cast<std::size_t>(tiles), -1);
  std::atomic<std::int64_t> next{0};
  std::atomic<std::int64_t> first_bad_tile{tiles};  // later tiles need not be bucketed
  core::parallel_for_chunks(threads, 1, [&](int, std::int64_t, std::int64_t) {
    std::vector<std::int64_t> target(static_cast<std::size_t>(tile));
    std::vector<std::uint32_t> place(static_cast<std::size_t>(blocks));
    for (;;) {
      const std::int64_t t = next.fetch_add(1, std::memory_order_relaxed);
      if (t >= tiles || t > first_bad_tile.load(std::memory_order_relaxed)) return;
      const std::int64_t begin = t * tile;
      const std::int64_t end = std::min(n, begin + tile);
      std::fill(place.begin(), place.end(), 0);
      std::int64_t bad_at = -1;
      geometry.for_each_row(begin, end, [&](std::int64_t first, std::int64_t count,
                                            std::int64_t base, std::int64_t stride) {
        if (bad_at >= 0) return;
        std::int64_t* row_target = target.data() + (first - begin);
        for (std::int64_t k = 0; k < count; ++k) {
          std::int64_t index = 0;
          if (kernels::wrap_axis_index(indices[first + k], axis_size, &index)) {
            const std::int64_t at = base + k * stride + index * axis_stride;
            row_target[k] = at;
            ++place[static_cast<std::size_t>(at >> shift)];
          } else if (check) {
            bad_at = first + k;
            return;
          } else {
            row_target[k] = -1;
          }
        }
      });
      if (bad_at >= 0) {
        bad[static_cast<std::size_t>(t)] = bad_at;
        std::int64_t seen = first_bad_tile.load(std::memory_order_relaxed);
        while (t < seen && !first_bad_tile.compare_exchange_weak(seen, t)) {
        }
        continue;
      }
      std::uint32_t* begins = tile_begin.data() + static_cast<std::size_t>(t) * places;
      std::uint32_t running = 0;
      for (std::size_t b = 0; b + 1 < places; ++b) {
        begins[b] = running;
        const std::uint32_t here = place[b];
        place[b] = running;
        running += here;
      }
      begins[places - 1] = running;
      std::uint16_t* tile_offsets = offsets + begin;
      T* tile_values = values + begin;
      for (std::int64_t p = begin; p < end; ++p) {
        const std::int64_t at = target[static_cast<std::size_t>(p - begin)];
        if (at < 0) continue;
        const std::uint32_t k = place[static_cast<std::size_t>(at >> shift)]++;
        tile_offsets[k] = static_cast<std::uint16_t>(at & mask);
        tile_values[k] = updates[p];
      }
    }
  });
  if (check) {
    for (const std::int64_t p : bad) {
      if (p >= 0) {
        core::AxisIndexResult result;
        result.first_bad_index = p;
        result.bad_value = static_cast<std::int64_t>(indices[p]);
        return result;
      }
    }
  }

  buckets::for_each_block(threads, blocks, [&](std::int64_t b) {
    const std::int64_t first = b << shift;
    if (copy) {
      const std::int64_t last = std::min(plan.num_elements, (b + 1) << shift);
      std::memcpy(out + first, tensor + first, static_cast<std::size_t>(last - first) * sizeof(T));
    }
    T* block_out = out + first;
    for (std::int64_t t = 0; t < tiles; ++t) {
      const std::uint32_t* begins = tile_begin.data() + static_cast<std::size_t>(t) * places;
      const std::uint16_t* tile_offsets = offsets + t * tile;
      const T* tile_values = values + t * tile;
      const std::uint32_t stop = begins[b + 1];
      for (std::uint32_t k = begins[b]; k < stop; ++k) {
        T& at = block_out[tile_offsets[k]];
        at = kernels::Combine<Op>::apply(at, tile_values[k]);
      }
    }
  });
  return {};
}

}  // namespace tensorbuf::cpu::scatter_elements_buckets

namespace tensorbuf::cpu {

// scatter_elements_bucketed (core/elements_backends.hpp) with tiles of `tile_positions`: for
// tests, with tiles small enough for many.
core::AxisIndexResult scatter_elements_tiled(const core::ScatterElementsPlan& plan,
                                             const core::ScatterElementsBuffers& buffers,
                                             int threads, std::int64_t block_bytes,
                                             std::int64_t tile_positions);

}  // namespace tensorbuf::cpu
