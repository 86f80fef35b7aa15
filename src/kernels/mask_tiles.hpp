// Mask tiles: a bool mask read 8 bytes (one 64-bit word) at a time, and the true count of each
// tile, whose exclusive scan gives every true position its rank. Shared by the mask ops (the op
// table's kBooleanMask and kBooleanMaskUpdate families): the update writes the ranked rows, the
// others read them.
#pragma once

#include <cstdint>
#include <cstring>

#include "kernels/bits.hpp"
#include "kernels/carriers.hpp"
#include "kernels/config.hpp"

namespace tensorbuf::kernels {

// The rank j of a true mask position m (how many true positions precede it) comes from tiles
// of kMaskTile = 8 mask bytes, one 64-bit word: the exclusive scan of the tiles' true counts at
// m's tile, plus the true bytes before m in the word the write pass loads anyway for mask[m].
// The tile scan is an eighth of an M-entry scan (mostly cache-resident), so the write pass's
// only dependent read is that of the updates row (the "block sums + scan + write").
inline constexpr std::int64_t kMaskTile = 8;

// How many of the 8 bytes of `word` are nonzero (whatever their values).
TENSORBUF_HOST_DEVICE inline std::int64_t nonzero_bytes(std::uint64_t word) {
  word |= word >> 4;
  word |= word >> 2;
  word |= word >> 1;
  word &= kOnesPerByte;
  return popcount64(word);
}

// The mask tile holding m: its bytes as one little-endian word (tiles wholly inside the mask;
// the mask 8-byte aligned on the device, as device allocations are) or, for the last partial
// tile, assembled byte by byte so that nothing past the mask is read.
TENSORBUF_HOST_DEVICE inline std::uint64_t mask_tile_word(const std::uint8_t* mask,
                                                          std::int64_t mask_size,
                                                          std::int64_t tile) {
  const std::int64_t lo = tile * kMaskTile;
  if (lo + kMaskTile <= mask_size) {
#if defined(__CUDA_ARCH__)
    return *reinterpret_cast<const std::uint64_t*>(mask + lo);
#else
    std::uint64_t word;
    std::memcpy(&word, mask + lo, sizeof word);
    return word;
#endif
  }
  std::uint64_t word = 0;
  for (std::int64_t at = lo; at < mask_size; ++at) {
    word |= static_cast<std::uint64_t>(mask[at]) << (8 * (at - lo));
  }
  return word;
}

// The true bytes of tile T, and 0 for T = tiles, so that an exclusive scan over tiles + 1
// entries leaves the total n in its last one (the update's variant
// MaskUpdateRanks::kScanOfCounts scans these).
template <class Index>
struct MaskTileCountOf {
  const std::uint8_t* mask;
  std::int64_t mask_size;
  std::int64_t tiles;
  TENSORBUF_HOST_DEVICE Index operator()(std::int64_t tile) const {
    if (tile == tiles) return Index{0};
    return static_cast<Index>(nonzero_bytes(mask_tile_word(mask, mask_size, tile)));
  }
};

// counts[T] = MaskTileCountOf(T) for T in [0, tiles] (scanned in place afterwards).
template <class Index>
struct MaskTileCountFunctor {
  MaskTileCountOf<Index> count_of;
  Index* counts;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t tile) const { counts[tile] = count_of(tile); }
};

}  // namespace tensorbuf::kernels
