// scatter_elements into a tensor beyond the cache: the positions are bucketed by output block
// (cpu/buckets.hpp, one element per target), then each block is copied (out of place) and
// updated while it is in cache, instead of a cache miss per position.
//  1. position chunks, in parallel: count the positions per block (bad indices are skipped:
//     under kError they were refused before, under kDrop they are dropped);
//  2. places, block-major; position chunks, in parallel: fill the entries (target, update);
//  3. blocks, claimed one at a time: copy the block, apply its entries in position order.
// Every target sees its updates in row-major order, whatever the thread count.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "core/elements_backends.hpp"
#include "core/parallel.hpp"
#include "cpu/buckets.hpp"
#include "cpu/elements_geometry.hpp"
#include "kernels/axis_index.hpp"
#include "kernels/scatter_nd_combine.hpp"

namespace tensorbuf::cpu::scatter_elements_buckets {

// Below this the tensor stays in the L2 caches and a direct update is as fast.
inline constexpr std::int64_t kMinTensorBytes = std::int64_t{2} << 20;

// Bucketed when the tensor is beyond the caches and the positions are not so few that the
// per-block counters and the pass over them would dominate.
inline bool applies(const core::ScatterElementsPlan& plan, std::size_t element_bytes) {
  const std::int64_t bytes = plan.num_elements * static_cast<std::int64_t>(element_bytes);
  return bytes >= kMinTensorBytes &&
         plan.layout.num_positions >= 16 * (bytes / buckets::kBlockBytes + 1);
}

template <core::ScatterOp Op, class T, class Index, class Id>
void run_with(const core::ScatterElementsPlan& plan, const core::ScatterElementsBuffers& buffers,
              int threads, std::int64_t block_bytes) {
  const auto* indices = static_cast<const Index*>(buffers.indices);
  const auto* updates = static_cast<const T*>(buffers.updates);
  const auto* tensor = static_cast<const T*>(buffers.tensor);
  auto* out = static_cast<T*>(buffers.out);
  const bool copy = buffers.out != buffers.tensor;
  const std::int64_t n = plan.layout.num_positions;
  const std::int64_t axis_size = plan.layout.axis_size;
  const std::int64_t axis_stride = plan.layout.axis_stride;
  const auto per_block = static_cast<std::uint64_t>(block_bytes / std::int64_t{sizeof(T)});
  const int shift = std::bit_width(per_block) - 1;
  const std::int64_t blocks = ((plan.num_elements - 1) >> shift) + 1;
  const HostElementsGeometry geometry(plan.layout);
  // visit(p, target) for each position of [begin, end) with a good index, in order.
  auto for_each_target = [&](std::int64_t begin, std::int64_t end, auto&& visit) {
    geometry.for_each_row(begin, end, [&](std::int64_t first, std::int64_t count,
                                          std::int64_t base, std::int64_t stride) {
      for (std::int64_t k = 0; k < count; ++k) {
        std::int64_t index = 0;
        if (kernels::wrap_axis_index(indices[first + k], axis_size, &index)) {
          visit(first + k, base + k * stride + index * axis_stride);
        }
      }
    });
  };

  // Passes 1 and 2 cut the positions the same way (same n and min_chunk).
  const std::int64_t min_positions = std::max<std::int64_t>(1, n / threads);
  const int chunks = core::chunk_count(n, min_positions);
  std::vector<std::int64_t> counts(static_cast<std::size_t>(chunks * blocks), 0);
  core::parallel_for_chunks(n, min_positions, [&](int c, std::int64_t begin, std::int64_t end) {
    std::int64_t* count = counts.data() + c * blocks;
    for_each_target(begin, end, [&](std::int64_t, std::int64_t target) { ++count[target >> shift]; });
  });
  const std::vector<std::int64_t> block_begin = buckets::place_by_block(counts, chunks, blocks);

  using E = buckets::Entry<Id, T>;
  const std::int64_t entries_count = std::max<std::int64_t>(block_begin.back(), 1);
  const buckets::Scratch scratch(static_cast<std::size_t>(entries_count) * sizeof(E));
  E* entries = static_cast<E*>(scratch.data());
  core::parallel_for_chunks(n, min_positions, [&](int c, std::int64_t begin, std::int64_t end) {
    std::int64_t* place = counts.data() + c * blocks;
    for_each_target(begin, end, [&](std::int64_t p, std::int64_t target) {
      entries[place[target >> shift]++] = E{static_cast<Id>(target), updates[p]};
    });
  });
  buckets::for_each_block(threads, blocks, [&](std::int64_t b) {
    if (copy) {
      const std::int64_t first = b << shift;
      const std::int64_t last = std::min(plan.num_elements, (b + 1) << shift);
      std::memcpy(out + first, tensor + first, static_cast<std::size_t>(last - first) * sizeof(T));
    }
    buckets::apply_block(entries, block_begin, b, [&](const E& e) {
      T& target = out[static_cast<std::int64_t>(e.slice)];
      target = kernels::Combine<Op>::apply(target, e.payload);
    });
  });
}

// Runs the bucketed scatter on up to `threads` threads with blocks of `block_bytes` (tests pass
// small ones). The indices must have been checked under kError.
template <core::ScatterOp Op, class T, class Index>
void run(const core::ScatterElementsPlan& plan, const core::ScatterElementsBuffers& buffers,
         int threads, std::int64_t block_bytes) {
  constexpr auto kId32 = static_cast<std::int64_t>(std::numeric_limits<std::uint32_t>::max());
  if (plan.num_elements < kId32) {
    run_with<Op, T, Index, std::uint32_t>(plan, buffers, threads, block_bytes);
  } else {
    run_with<Op, T, Index, std::uint64_t>(plan, buffers, threads, block_bytes);
  }
}

}  // namespace tensorbuf::cpu::scatter_elements_buckets
