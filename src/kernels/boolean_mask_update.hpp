// boolean_mask_update: the per-element logic shared by both backends, and the multi-pass
// driver of the CUDA backend (tile counts of the mask -> scan -> fused write), written over an
// executor (executor.hpp) so CPU tests run it through HostExecutor.
//
// The op is an "expand", the inverse of stream compaction: with the tensor viewed as
// [outer, M, inner], the j-th true mask position m (j = how many true positions precede m)
// receives row j of the (broadcast) updates for every o and every trailing element t.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/boolean_mask_update_plan.hpp"
#include "kernels/bits.hpp"
#include "kernels/config.hpp"
#include "kernels/mask_tiles.hpp"
#include "kernels/boolean_mask_update_variants.hpp"

namespace tensorbuf::kernels {

// Offset of a row-major index over (dims, strides) of `rank` dims; strides may be 0.
TENSORBUF_HOST_DEVICE inline std::int64_t unravel_offset(std::int64_t index, int rank,
                                                         const std::int64_t* dims,
                                                         const std::int64_t* strides) {
  std::int64_t offset = 0;
  for (int d = rank - 1; d >= 0; --d) {
    const std::int64_t q = index / dims[d];
    offset += (index - q * dims[d]) * strides[d];
    index = q;
  }
  return offset;
}

// Offset in `updates` of the first element of target row (o, j): lead part + j * row_stride.
TENSORBUF_HOST_DEVICE inline std::int64_t mask_update_row_offset(
    const core::MaskUpdateLayout& layout, std::int64_t o, std::int64_t j) {
  const std::int64_t lead =
      layout.lead_rank == 0
          ? 0
          : unravel_offset(o, layout.lead_rank, layout.lead_dims, layout.lead_strides);
  return lead + j * layout.row_stride;
}

// Offset in `updates` of trailing element t within a row.
TENSORBUF_HOST_DEVICE inline std::int64_t mask_update_trail_offset(
    const core::MaskUpdateLayout& layout, std::int64_t t) {
  if (layout.trail_contiguous) return t;
  if (layout.trail_broadcast) return 0;
  return unravel_offset(t, layout.trail_rank, layout.trail_dims, layout.trail_strides);
}

// Whether the updates row of (o, j) depends on j, i.e. the write needs each position's rank.
inline bool mask_update_needs_scan(const core::MaskUpdateLayout& layout) {
  return layout.row_stride != 0;
}

// Splits element e of the tensor into (o, m, t); the divisions are skipped where a side is 1.
TENSORBUF_HOST_DEVICE inline void mask_update_split(const core::MaskUpdateLayout& layout,
                                                    std::int64_t e, std::int64_t& o,
                                                    std::int64_t& m, std::int64_t& t) {
  std::int64_t row = e;
  t = 0;
  if (layout.inner != 1) divide(e, layout.inner, row, t);
  o = 0;
  m = row;
  if (layout.outer != 1) divide(row, layout.mask_size, o, m);
}

// Views W consecutive trailing elements as one element of W * element_size bytes, for the
// largest W <= max_bytes / element_size that divides inner, the updates' row stride and lead
// strides, and `alignment` (in bytes, of every pointer the op touches); only when the trailing
// part of updates is contiguous. Returns W (1: layout unchanged). The op only moves bytes, so
// the widened layout does the same work in fewer, wider loads and stores.
inline std::int64_t mask_update_widen(core::MaskUpdateLayout& layout, std::size_t element_size,
                                      std::size_t max_bytes, std::size_t alignment) {
  if (!layout.trail_contiguous || layout.inner <= 1) return 1;
  std::int64_t w = static_cast<std::int64_t>(max_bytes / element_size);
  for (; w > 1; w /= 2) {
    bool fits = layout.inner % w == 0 && layout.row_stride % w == 0 &&
                alignment % (static_cast<std::size_t>(w) * element_size) == 0;
    for (int d = 0; d < layout.lead_rank; ++d) fits = fits && layout.lead_strides[d] % w == 0;
    if (fits) break;
  }
  if (w <= 1) return 1;
  layout.inner /= w;
  layout.row_stride /= w;
  for (int d = 0; d < layout.lead_rank; ++d) layout.lead_strides[d] /= w;
  layout.trail_rank = 1;
  layout.trail_dims[0] = layout.inner;
  layout.trail_strides[0] = 1;
  return w;
}

// One pass over the output: out[e] = masked ? updates'[o, rank(m), t] : tensor[e]. In place
// (`tensor` null) only masked elements are written. Carrier is an unsigned integer of the element's
// size (or wider, mask_update_widen): the op only moves bytes. Split in a read step and a write
// step (for_each_index_staged) so that a GPU thread has several elements' reads in flight.
template <class Carrier, class Index>
struct MaskUpdateFusedFunctor {
  struct Item {
    Carrier value;
    bool write;
  };
  core::MaskUpdateLayout layout;
  const std::uint8_t* mask;
  const Index* tile_scan;  // exclusive scan of the tile counts; null: the rank is not needed
  const Carrier* tensor;
  const Carrier* updates;
  Carrier* out;
  // When set: n as the scan left it on the device, and the n the updates' shape requires; on a
  // mismatch nothing is written (the host learns it after the pass, from the same n).
  const Index* count = nullptr;
  std::int64_t required_count = -1;
  TENSORBUF_HOST_DEVICE Item load(std::int64_t e) const {
    if (count != nullptr && static_cast<std::int64_t>(*count) != required_count) {
      return {Carrier{}, false};
    }
    std::int64_t o, m, t;
    mask_update_split(layout, e, o, m, t);
    // The tile word and the tile's scan entry are read together (independent reads).
    const std::int64_t tile = m / kMaskTile;
    const std::uint64_t word = mask_tile_word(mask, layout.mask_size, tile);
    const std::int64_t before =
        tile_scan != nullptr ? static_cast<std::int64_t>(tile_scan[tile]) : 0;
    const auto shift = static_cast<unsigned int>(8 * (m - tile * kMaskTile));
    if (((word >> shift) & 0xffu) != 0) {
      const std::uint64_t below = shift == 0 ? 0 : word & ((std::uint64_t{1} << shift) - 1);
      const std::int64_t j = before + nonzero_bytes(below);
      return {updates[mask_update_row_offset(layout, o, j) + mask_update_trail_offset(layout, t)],
              true};
    }
    if (tensor != nullptr) return {tensor[e], true};
    return {Carrier{}, false};
  }
  TENSORBUF_HOST_DEVICE void store(std::int64_t e, const Item& item) const {
    if (item.write) out[e] = item.value;
  }
};

// Copies the kMaskTile carriers of one flat tile. The device moves 16 bytes at a time when
// both addresses allow it (a tile of 8 carriers of 2 bytes or more is a whole number of 16-byte
// chunks); otherwise, and on the host, carrier by carrier.
template <class Carrier>
TENSORBUF_HOST_DEVICE inline void copy_tile_block(Carrier* dst, const Carrier* src) {
#if defined(__CUDA_ARCH__)
  constexpr std::size_t kBytes = sizeof(Carrier) * kMaskTile;
  if constexpr (kBytes % 16 == 0) {
    if (((reinterpret_cast<std::uintptr_t>(dst) | reinterpret_cast<std::uintptr_t>(src)) & 15u) ==
        0) {
      for (std::size_t k = 0; k < kBytes / 16; ++k) {
        reinterpret_cast<uint4*>(dst)[k] = reinterpret_cast<const uint4*>(src)[k];
      }
      return;
    }
  }
#endif
  for (std::int64_t r = 0; r < kMaskTile; ++r) dst[r] = src[r];
}

// The tile form of the pass (MaskUpdatePass::kTiles): one thread per (o, mask tile of 8 rows,
// trailing element t) reads the tile's mask word once and its scan entry once, then walks the
// tile's rows, counting ranks as it goes. In place (`tensor` null) a tile without a true byte
// costs one load, and only true rows are written; out of place every row is written. The
// same count guard as the element form: nothing is written on a mismatch.
template <class Carrier, class Index>
struct MaskUpdateTileFunctor {
  core::MaskUpdateLayout layout;
  const std::uint8_t* mask;
  const Index* tile_scan;  // null: the rank is not needed
  const Carrier* tensor;   // null: in place
  const Carrier* updates;
  Carrier* out;
  std::int64_t tiles;
  const Index* count = nullptr;
  std::int64_t required_count = -1;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t e) const {
    if (count != nullptr && static_cast<std::int64_t>(*count) != required_count) return;
    std::int64_t rest = e;
    std::int64_t t = 0;
    if (layout.inner != 1) divide(e, layout.inner, rest, t);
    std::int64_t o = 0;
    std::int64_t tile = rest;
    if (layout.outer != 1) divide(rest, tiles, o, tile);
    const std::uint64_t word = mask_tile_word(mask, layout.mask_size, tile);
    if (word == 0 && tensor == nullptr) return;
    const std::int64_t m0 = tile * kMaskTile;
    const std::int64_t rows =
        layout.mask_size - m0 < kMaskTile ? layout.mask_size - m0 : kMaskTile;
    const std::int64_t first = (o * layout.mask_size + m0) * layout.inner + t;
    std::int64_t j = tile_scan != nullptr ? static_cast<std::int64_t>(tile_scan[tile]) : 0;
    const std::int64_t source = mask_update_row_offset(layout, o, 0) +
                                mask_update_trail_offset(layout, t);
    if (tensor != nullptr && layout.inner == 1 && rows == kMaskTile) {
      // A flat tile out of place: its 8 elements are contiguous, so they move as one block
      // (16-byte loads and stores on the device where aligned), updated in registers.
      alignas(16) Carrier block[kMaskTile];
      copy_tile_block(block, tensor + first);
      for (std::int64_t r = 0; r < kMaskTile; ++r) {
        if (((word >> (8 * r)) & 0xffu) != 0) {
          block[r] = updates[source + j * layout.row_stride];
          ++j;
        }
      }
      copy_tile_block(out + first, block);
      return;
    }
    for (std::int64_t r = 0; r < rows; ++r) {
      const std::int64_t at = first + r * layout.inner;
      if (((word >> (8 * r)) & 0xffu) != 0) {
        out[at] = updates[source + j * layout.row_stride];
        ++j;
      } else if (tensor != nullptr) {
        out[at] = tensor[at];
      }
    }
  }
};

// Elements whose reads one GPU thread keeps in flight at once.
template <class Carrier>
inline constexpr int kMaskUpdateStagedItems = sizeof(Carrier) >= 16 ? 4 : 8;

// The driver. `out == tensor` runs in place. Index (int32 or int64) holds the tile scan; the
// caller picks int32 when M fits. Steps, all on the executor's side:
//   1. (when the write or the check needs ranks) counts of the 8-byte mask tiles, exclusive
//      scan over tiles + 1 entries: the last is n;
//   2. one pass over the tensor's elements (fused copy + update, or masked writes in place);
//      if required_count >= 0 it reads n where the scan left it and writes nothing unless
//      n == required_count, so the pass is queued right behind the scan;
//   3. if required_count >= 0: n read back to the host (the one host wait of the op, after the
//      pass); n != required_count -> {false, n}, nothing having been written.
//   kTiles / kCopyThenTiles (MaskUpdatePass) replace step 2 by the tile form, the latter out
//   of place after copying the whole tensor to the output. kScanOfCounts (MaskUpdateRanks)
//   makes step 1 one scan of the counts computed as it reads them.
template <class Carrier, class Index, class Executor>
core::BooleanMaskUpdateResult run_boolean_mask_update_carrier(
    Executor& ex, const core::MaskUpdateLayout& layout, std::int64_t required_count,
    const std::uint8_t* mask, const Carrier* tensor, const Carrier* updates, Carrier* out,
    MaskUpdatePass pass_kind = MaskUpdatePass::kElements,
    MaskUpdateRanks ranks_kind = MaskUpdateRanks::kCountThenScan) {
  core::BooleanMaskUpdateResult result;
  const std::int64_t m_size = layout.mask_size;
  const std::int64_t tiles = (m_size + kMaskTile - 1) / kMaskTile;
  Index* tile_scan = nullptr;
  if (m_size > 0 && (mask_update_needs_scan(layout) || required_count >= 0)) {
    tile_scan = ex.template scratch<Index>(tiles + 1);
    const MaskTileCountOf<Index> count_of{mask, m_size, tiles};
    if (ranks_kind == MaskUpdateRanks::kScanOfCounts) {
      ex.exclusive_scan_of(count_of, tile_scan, tiles + 1);
    } else {
      ex.for_each_index(tiles + 1, MaskTileCountFunctor<Index>{count_of, tile_scan});
      ex.exclusive_scan(tile_scan, tile_scan, tiles + 1);
    }
  }
  if (required_count >= 0 && m_size == 0) {  // n = 0, known without the device
    result = core::counted_mask_result(0, required_count);
    if (!result.applied()) return result;
  }
  const Index* ranks = mask_update_needs_scan(layout) ? tile_scan : nullptr;
  const std::int64_t elements = layout.outer * m_size * layout.inner;
  constexpr int kItems = kMaskUpdateStagedItems<Carrier>;
  const Carrier* copied = out == tensor ? nullptr : tensor;  // in place: masked elements only
  const bool check = required_count >= 0 && m_size > 0;
  if (pass_kind == MaskUpdatePass::kElements) {
    MaskUpdateFusedFunctor<Carrier, Index> pass{layout, mask, ranks, copied, updates, out};
    if (check) {
      pass.count = tile_scan + tiles;
      pass.required_count = required_count;
    }
    ex.template for_each_index_staged<kItems>(elements, pass);
  } else {
    if (pass_kind == MaskUpdatePass::kCopyThenTiles && copied != nullptr) {
      // A mismatch found afterwards discards this output, so copying first is safe.
      ex.copy(out, copied, static_cast<std::size_t>(elements) * sizeof(Carrier));
      copied = nullptr;
    }
    MaskUpdateTileFunctor<Carrier, Index> pass{layout, mask, ranks, copied, updates, out, tiles};
    if (check) {
      pass.count = tile_scan + tiles;
      pass.required_count = required_count;
    }
    ex.for_each_index(layout.outer * tiles * layout.inner, pass);
  }
  if (check) {
    const auto n = static_cast<std::int64_t>(ex.read_value(tile_scan + tiles));
    result = core::counted_mask_result(n, required_count);
  }
  return result;
}

// The driver with the widest carrier the layout and pointers allow (mask_update_widen, up to
// 16 bytes), and an int32 scan when the mask size fits: what the CUDA backend runs.
template <class Executor>
core::BooleanMaskUpdateResult run_boolean_mask_update(
    Executor& ex, const core::BooleanMaskUpdatePlan& plan,
    const core::BooleanMaskUpdateBuffers& buffers,
    MaskUpdatePass pass_kind = MaskUpdatePass::kElements,
    MaskUpdateRanks ranks_kind = MaskUpdateRanks::kCountThenScan) {
  core::MaskUpdateLayout layout = plan.layout;
  const std::size_t element_size = plan.element_size;
  const std::int64_t required_count = plan.required_count;
  const std::uint8_t* mask = buffers.mask;
  const void* tensor = buffers.tensor;
  const void* updates = buffers.updates;
  void* out = buffers.out;
  const std::uintptr_t bits = reinterpret_cast<std::uintptr_t>(tensor) |
                              reinterpret_cast<std::uintptr_t>(updates) |
                              reinterpret_cast<std::uintptr_t>(out);
  const std::size_t alignment = bits == 0 ? 16 : static_cast<std::size_t>(bits & (~bits + 1));
  const std::size_t carrier_size = element_size * static_cast<std::size_t>(mask_update_widen(
                                                      layout, element_size, 16, alignment));
  auto run = [&](auto carrier_tag) {
    using Carrier = decltype(carrier_tag);
    const auto* t = static_cast<const Carrier*>(tensor);
    const auto* u = static_cast<const Carrier*>(updates);
    auto* o = static_cast<Carrier*>(out);
    if (layout.mask_size <= 0x7fffffffll) {
      return run_boolean_mask_update_carrier<Carrier, std::int32_t>(
          ex, layout, required_count, mask, t, u, o, pass_kind, ranks_kind);
    }
    return run_boolean_mask_update_carrier<Carrier, std::int64_t>(
        ex, layout, required_count, mask, t, u, o, pass_kind, ranks_kind);
  };
  switch (carrier_size) {
    case 1:
      return run(std::uint8_t{});
    case 2:
      return run(std::uint16_t{});
    case 4:
      return run(std::uint32_t{});
    case 8:
      return run(std::uint64_t{});
    default:
      return run(Bytes16{});
  }
}

}  // namespace tensorbuf::kernels
