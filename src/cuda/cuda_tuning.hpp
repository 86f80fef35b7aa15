// Tuning of the CUDA backend: which variant of a driver's passes runs (kernels/*_variants.hpp),
// so that one GPU run of the bench measures every candidate (bench/RESULTS.md, "Pending H200
// run") and tests can pin one. Process-wide; set it before the calls it should affect. Defined
// in every build (without CUDA nothing reads it).
#pragma once

#include <cstdint>

#include "kernels/boolean_mask_update_variants.hpp"
#include "kernels/substr_variants.hpp"

namespace tensorbuf::cuda {

struct CudaTuning {
  // Defaults measured on an H200 (bench/RESULTS.md, "First H200 run"): the tile
  // pass in place (1.2-1.8x the element pass), and out of place on a flat mask (inner == 1:
  // 2.5x); out of place with trailing elements the element pass (the tile pass 11% slower).
  kernels::MaskUpdatePass mask_update_in_place = kernels::MaskUpdatePass::kTiles;
  kernels::MaskUpdatePass mask_update_out_of_place = kernels::MaskUpdatePass::kElements;
  kernels::MaskUpdatePass mask_update_out_of_place_flat = kernels::MaskUpdatePass::kTiles;
  // Both forms: how the tile scan of the mask is made (count pass + scan, or one scan).
  kernels::MaskUpdateRanks mask_update_ranks = kernels::MaskUpdateRanks::kCountThenScan;
  // substr: average string length (bytes) from which a warp works on one string; -1: the
  // driver's default.
  std::int64_t substr_lane_threshold = -1;
  // substr: the lane-scan variant of the UTF-8 lane form (kernels::SubstrDriverConfig).
  bool substr_lane_scan = false;
  // substr: how the lane form copies long substrings (byte and UTF-8 units alike).
  kernels::SubstrLaneCopy substr_lane_copy = kernels::SubstrLaneCopy::kWords;
  // substr: how byte units get their output offsets (sizes pass + scan, or one scan).
  kernels::SubstrByteOffsets substr_byte_offsets = kernels::SubstrByteOffsets::kSizesThenScan;
};

CudaTuning cuda_tuning();
void set_cuda_tuning(const CudaTuning& tuning);

}  // namespace tensorbuf::cuda
