// The alternative GPU algorithms of boolean_mask_update's driver for the same result, chosen
// by the CUDA backend's tuning switch (cuda/cuda_tuning.hpp) so that one GPU run can measure
// each against the default; tests run every one on the host executor. Plain enums only.
#pragma once

namespace tensorbuf::kernels {

// boolean_mask_update's write pass (kernels/boolean_mask_update.hpp).
enum class MaskUpdatePass {
  // A thread per element of the tensor: its mask byte's word, and a write (in place: masked
  // elements only). The default.
  kElements,
  // A thread per (mask tile of 8 rows, trailing element): one mask word, ranks counted along
  // the tile. In place it skips a tile without a true byte at once, visiting only true rows;
  // out of place on a flat tensor its 8 elements move as one block (16-byte device accesses).
  kTiles,
  // Out of place: out = tensor as one device copy, then kTiles in place. In place: kTiles.
  kCopyThenTiles,
};

// How boolean_mask_update's driver gets the exclusive scan of its mask tiles' true counts (the
// ranks, and n in the last entry), when it needs one. Launches per call on the CUDA executor
// (docs/boolean_mask_update.md, "Launches per call").
enum class MaskUpdateRanks {
  // A pass writing each tile's count, then CUB's scan of that array (2 kernels): 3 launches.
  // The default.
  kCountThenScan,
  // One CUB scan whose input is each tile's count, computed from the mask as the scan reads
  // it: 2 launches, and the counts array is neither written nor read back.
  kScanOfCounts,
};

}  // namespace tensorbuf::kernels
