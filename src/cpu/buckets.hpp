// The pieces of a bucketed scatter shared by scatter_nd (scatter_nd_buckets.hpp) and
// scatter_elements (scatter_elements_buckets.hpp): updates are counted per output block by
// chunks of rows, placed block-major and chunk-minor (a stable counting sort, so each block
// keeps its rows in row order), and each block is then updated while it is in cache.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/host_allocator.hpp"
#include "core/parallel.hpp"

namespace tensorbuf::cpu::buckets {

// A block fits the per-core L2 with room for the entries streaming through it.
inline constexpr std::int64_t kBlockBytes = std::int64_t{256} << 10;

// One bucketed row: its target (a slice or an element) and a payload (the update value itself,
// or the row for wider slices).
template <class Id, class Payload>
struct Entry {
  Id slice;
  Payload payload;
};

// Scratch from the caching host allocator: large blocks are reused across calls, so a steady
// state pays no page faults for the entries.
class Scratch {
 public:
  explicit Scratch(std::size_t bytes) : bytes_(bytes), data_(core::allocate_host_memory(bytes)) {}
  ~Scratch() { core::free_host_memory(data_, bytes_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  void* data() const { return data_; }

 private:
  std::size_t bytes_;
  void* data_;
};

// counts[c * blocks + b] (rows of chunk c for block b) becomes the place of chunk c's first row
// in block b; returns each block's first place, and the total at [blocks].
inline std::vector<std::int64_t> place_by_block(std::vector<std::int64_t>& counts, int chunks,
                                                std::int64_t blocks) {
  std::vector<std::int64_t> block_begin(static_cast<std::size_t>(blocks) + 1);
  std::int64_t running = 0;
  for (std::int64_t b = 0; b < blocks; ++b) {
    block_begin[static_cast<std::size_t>(b)] = running;
    for (int c = 0; c < chunks; ++c) {
      std::int64_t& count = counts[static_cast<std::size_t>(c * blocks + b)];
      const std::int64_t here = count;
      count = running;
      running += here;
    }
  }
  block_begin[static_cast<std::size_t>(blocks)] = running;
  return block_begin;
}

// block(b) for every b in [0, blocks), claimed one at a time by up to `threads` threads (a
// block's rows may be many more than another's).
template <class Block>
void for_each_block(int threads, std::int64_t blocks, const Block& block) {
  std::atomic<std::int64_t> next{0};
  core::parallel_for_chunks(threads, 1, [&](int, std::int64_t, std::int64_t) {
    for (;;) {
      const std::int64_t b = next.fetch_add(1, std::memory_order_relaxed);
      if (b >= blocks) return;
      block(b);
    }
  });
}

// apply(entry) for block b's entries, in their placed order.
template <class E, class Apply>
void apply_block(const E* entries, const std::vector<std::int64_t>& block_begin, std::int64_t b,
                 const Apply& apply) {
  const E* entry = entries + block_begin[static_cast<std::size_t>(b)];
  const E* entry_end = entries + block_begin[static_cast<std::size_t>(b) + 1];
  for (; entry != entry_end; ++entry) apply(*entry);
}

}  // namespace tensorbuf::cpu::buckets
