// scatter_elements' direct path on the CPU. Positions that share a target differ only along the
// axis (q = p with q[axis] replaced), so the lanes across the axis, (o, i) with
// p = (o * A + a) * In + i, run in contiguous chunks on the pool, each chunk walking
// a = 0..A-1 in order for a block of lanes at a time: lanes have disjoint targets, so every
// target sees its updates in row-major order (kNone: the last wins), whatever the thread count.
// With a prefetch distance (a tensor beyond the L2 caches), each target is prefetched for
// writing that many positions ahead, so its miss overlaps the others' instead of stalling the
// stores, and the indices and updates are prefetched non-temporally further ahead: read once,
// they then do not evict the tensor from the L3.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/elements_plan.hpp"
#include "core/parallel.hpp"
#include "cpu/elements_geometry.hpp"
#include "cpu/prefetch.hpp"
#include "kernels/axis_index.hpp"
#include "kernels/scatter_nd_combine.hpp"

namespace tensorbuf::cpu::scatter_elements_lanes {

// Cost of one position on one core (index wrap, a combine at a random address), for the pool's
// policy.
inline constexpr double kPositionNs = 3.0;
// Lanes walked together along the axis: their first positions and bases stay in L1.
inline constexpr std::int64_t kLaneBlock = 256;
// Positions (over a block's lanes) the streams are prefetched ahead: 512 measured best with
// targets 128 and 256 ahead.
inline constexpr std::int64_t kStreamPositions = 512;

// The indices as given: wrapped here, a bad one skipped (kDrop; kError checked them before).
template <class Index>
struct RawIndices {
  const Index* indices;
  std::int64_t axis_size;
  bool get(std::int64_t p, std::int64_t* index) const {
    return kernels::wrap_axis_index(indices[p], axis_size, index);
  }
  const void* data() const { return indices; }
  static constexpr std::int64_t kBytes = sizeof(Index);
};

// The indices checked and wrapped into a narrow type (cpu/axis_index_wrap.hpp).
template <class Small>
struct WrappedIndices {
  const Small* indices;
  bool get(std::int64_t p, std::int64_t* index) const {
    *index = static_cast<std::int64_t>(indices[p]);
    return true;
  }
  const void* data() const { return indices; }
  static constexpr std::int64_t kBytes = sizeof(Small);
};

template <core::ScatterOp Op, class T, class Source>
void run(const core::ElementsLayout& layout, const Source& source, const T* updates, T* out,
         std::int64_t prefetch_positions) {
  std::int64_t outer = 1;
  std::int64_t inner = 1;
  for (int d = 0; d < layout.indices_dims.rank(); ++d) {
    const std::int64_t dim = layout.indices_dims[static_cast<std::size_t>(d)];
    if (d < layout.axis) outer *= dim;
    if (d > layout.axis) inner *= dim;
  }
  const std::int64_t along = layout.indices_dims[static_cast<std::size_t>(layout.axis)];
  const HostElementsGeometry host_geometry(layout);
  const kernels::ElementsGeometry& geometry = host_geometry.get();
  const std::int64_t axis_stride = layout.axis_stride;
  constexpr std::int64_t kIndicesPerLine = std::max<std::int64_t>(1, 64 / Source::kBytes);
  constexpr std::int64_t kUpdatesPerLine =
      std::max<std::int64_t>(1, 64 / static_cast<std::int64_t>(sizeof(T)));
  const std::int64_t min_lanes = core::min_chunk_for(kPositionNs * static_cast<double>(along));
  core::parallel_for(outer * inner, min_lanes, [&](std::int64_t begin, std::int64_t end) {
    // A block of lanes: each lane's first position (a = 0) and its base, which does not depend
    // on a (the axis' stride is 0), so the walk along the axis divides once per lane.
    std::int64_t first[kLaneBlock];
    std::int64_t base[kLaneBlock];
    for (std::int64_t block = begin; block < end; block += kLaneBlock) {
      const std::int64_t lanes = std::min(kLaneBlock, end - block);
      std::int64_t o = block / inner;
      std::int64_t i = block - o * inner;
      for (std::int64_t k = 0; k < lanes; ++k) {
        first[k] = o * along * inner + i;
        base[k] = geometry.base_of(first[k]);
        if (++i == inner) {
          i = 0;
          ++o;
        }
      }
      auto apply = [&](std::int64_t p, std::int64_t k) {
        std::int64_t index = 0;
        if (source.get(p, &index)) {
          T& target = out[base[k] + index * axis_stride];
          target = kernels::Combine<Op>::apply(target, updates[p]);
        }
      };
      // Rows of the block (steps along the axis) between a target's prefetch and its update;
      // without prefetching, the prefetching loop below never runs.
      const auto rows_for = [&](std::int64_t positions) {
        return std::max<std::int64_t>(1, (positions + lanes - 1) / lanes);
      };
      const std::int64_t rows_ahead = prefetch_positions > 0 ? rows_for(prefetch_positions) : along;
      const std::int64_t ahead = rows_ahead * inner;
      const std::int64_t stream_ahead =
          std::max(rows_ahead + 1, rows_for(kStreamPositions)) * inner;
      std::int64_t a = 0;
      for (; a + rows_ahead < along; ++a) {
        const std::int64_t shift = a * inner;
        for (std::int64_t k = 0; k < lanes; ++k) {
          const std::int64_t p = first[k] + shift;
          const std::int64_t streamed = p + stream_ahead;
          if ((streamed & (kIndicesPerLine - 1)) == 0) {
            prefetch_stream_at(source.data(), streamed * Source::kBytes);
          }
          if ((streamed & (kUpdatesPerLine - 1)) == 0) {
            prefetch_stream_at(updates, streamed * static_cast<std::int64_t>(sizeof(T)));
          }
          std::int64_t later = 0;
          if (source.get(p + ahead, &later)) {
            prefetch_for_write_at(
                out, (base[k] + later * axis_stride) * static_cast<std::int64_t>(sizeof(T)));
          }
          apply(p, k);
        }
      }
      for (; a < along; ++a) {
        const std::int64_t shift = a * inner;
        for (std::int64_t k = 0; k < lanes; ++k) apply(first[k] + shift, k);
      }
    }
  });
}

}  // namespace tensorbuf::cpu::scatter_elements_lanes
