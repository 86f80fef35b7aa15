// The read side of the mask ops: stream compaction, for boolean_mask and the forms of its family
// that share its kernel (into a caller's buffer; a 1-D condition along one axis). The family's
// update is the write side; both rank the mask with kernels/mask_tiles.hpp. With the tensor
// viewed as [outer, A, inner] and the mask over the first M <= A rows of the middle dim, the
// j-th true mask position m (j = how many true positions precede it) is copied to output row j
// of every outer block:
//   out[o, j, t] = tensor[o, m, t]   for j < capacity.
// The driver (tile counts -> scan -> one compaction pass) is written over an executor
// (executor.hpp), so CPU tests run the CUDA backend's logic through HostExecutor.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/boolean_mask_plan.hpp"
#include "kernels/carriers.hpp"
#include "kernels/config.hpp"
#include "kernels/mask_tiles.hpp"

namespace tensorbuf::kernels {

// The compaction pass: one thread per (o, mask tile of 8 rows, trailing carrier t). A tile
// without a true byte costs one load; the tile's first rank comes from the scan, the next ones
// by counting. Threads with consecutive t touch consecutive addresses (coalesced on a GPU).
template <class Carrier, class Index>
struct MaskCompactFunctor {
  const std::uint8_t* mask;
  std::int64_t mask_size;
  std::int64_t tiles;
  std::int64_t outer;
  std::int64_t axis_size;
  std::int64_t inner;     // in carriers
  std::int64_t capacity;  // output rows per outer block
  const Index* tile_scan;
  const Carrier* tensor;
  Carrier* out;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t e) const {
    std::int64_t rest = e;
    std::int64_t t = 0;
    if (inner != 1) divide(e, inner, rest, t);
    std::int64_t o = 0;
    std::int64_t tile = rest;
    if (outer != 1) divide(rest, tiles, o, tile);
    const std::uint64_t word = mask_tile_word(mask, mask_size, tile);
    if (word == 0) return;
    auto j = static_cast<std::int64_t>(tile_scan[tile]);
    const std::int64_t m0 = tile * kMaskTile;
    const Carrier* source = tensor + (o * axis_size + m0) * inner + t;
    Carrier* target = out + o * capacity * inner + t;
    for (std::int64_t r = 0; r < kMaskTile && j < capacity; ++r) {
      if (((word >> (8 * r)) & 0xffu) != 0) {
        target[j * inner] = source[r * inner];
        ++j;
      }
    }
  }
};

// Stores n (the scan's last entry) into the into form's count, on the executor's side.
template <class Index>
struct StoreMaskCount {
  const Index* total;
  std::int64_t* count;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t) const {
    *count = static_cast<std::int64_t>(*total);
  }
};

// The compaction pass with the widest carrier, `capacity` rows per outer block.
template <class Index, class Executor>
void run_mask_compact_pass(Executor& ex, const core::BooleanMaskPlan& plan,
                           const std::uint8_t* mask, std::int64_t tiles, const Index* tile_scan,
                           const void* tensor, void* out, std::int64_t capacity) {
  const std::size_t row_bytes = static_cast<std::size_t>(plan.inner) * plan.element_size;
  if (capacity <= 0 || row_bytes == 0 || plan.outer == 0 || tiles == 0) return;
  const std::size_t carrier = carrier_size(
      row_bytes, reinterpret_cast<std::uintptr_t>(tensor) | reinterpret_cast<std::uintptr_t>(out));
  const auto inner = static_cast<std::int64_t>(row_bytes / carrier);
  auto pass = [&](auto tag) {
    using Carrier = decltype(tag);
    const MaskCompactFunctor<Carrier, Index> functor{
        mask,     plan.mask_size, tiles,     plan.outer, plan.axis_size, inner,
        capacity, tile_scan,      static_cast<const Carrier*>(tensor), static_cast<Carrier*>(out)};
    ex.for_each_index(plan.outer * tiles * inner, functor);
  };
  with_carrier(carrier, pass);
}

// The driver, all on the executor's side:
//   1. true counts of the 8-byte mask tiles, exclusive scan over tiles + 1 entries (the last
//      is n);
//   2. sized form (plan.capacity < 0): n read back (the one host wait), allocate(n) gives the
//      output; into form: n stored into buffers.count on the device;
//   3. one compaction pass.
// Index (int32 or int64) holds the scan; run_boolean_mask picks int32 when M fits.
template <class Index, class Executor, class Allocate>
core::BooleanMaskResult run_boolean_mask_indexed(Executor& ex, const core::BooleanMaskPlan& plan,
                                                 const core::BooleanMaskBuffers& buffers,
                                                 const Allocate& allocate) {
  core::BooleanMaskResult result;
  const std::int64_t tiles = (plan.mask_size + kMaskTile - 1) / kMaskTile;
  Index* tile_scan = ex.template scratch<Index>(tiles + 1);
  const MaskTileCountOf<Index> count_of{buffers.mask, plan.mask_size, tiles};
  ex.for_each_index(tiles + 1, MaskTileCountFunctor<Index>{count_of, tile_scan});
  ex.exclusive_scan(tile_scan, tile_scan, tiles + 1);
  void* out = buffers.out;
  std::int64_t capacity = plan.capacity;
  if (capacity < 0) {
    capacity = static_cast<std::int64_t>(ex.read_value(tile_scan + tiles));
    result.count = capacity;
    out = allocate(capacity);
  } else {
    ex.for_each_index(1, StoreMaskCount<Index>{tile_scan + tiles, buffers.count});
  }
  run_mask_compact_pass(ex, plan, buffers.mask, tiles, tile_scan, buffers.tensor, out, capacity);
  return result;
}

template <class Executor, class Allocate>
core::BooleanMaskResult run_boolean_mask(Executor& ex, const core::BooleanMaskPlan& plan,
                                         const core::BooleanMaskBuffers& buffers,
                                         const Allocate& allocate) {
  if (plan.mask_size <= 0x7fffffffll) {
    return run_boolean_mask_indexed<std::int32_t>(ex, plan, buffers, allocate);
  }
  return run_boolean_mask_indexed<std::int64_t>(ex, plan, buffers, allocate);
}

}  // namespace tensorbuf::kernels
