// The alternative GPU algorithms of substr's driver for the same result, chosen by the
// CUDA backend's tuning switch (cuda/cuda_tuning.hpp) so that one GPU run can measure each
// against the default; tests run every one on the host executor. Plain enums only.
#pragma once

namespace tensorbuf::kernels {

// substr's copy of long substrings (kLanes threads per output string) on the device.
enum class SubstrLaneCopy {
  // Each lane stores 16 aligned bytes per step, built from the 5 aligned 4-byte words that
  // hold them. The default.
  kWords,
  // The same stores, built from the 2 aligned 16-byte words that hold them (two vector loads
  // instead of five scalar ones) wherever both lie inside the substring; the chunks near its
  // end as kWords.
  kVectors,
};

// How substr's driver makes the output offsets of byte units (kernels/substr_byte_scan.hpp).
enum class SubstrByteOffsets {
  // A fill of the bad index, a sizes pass, CUB's scan (2 kernels), a pass joining the total
  // and the bad index for one read (kError): 5 launches before the read (3 under kDrop). The
  // default.
  kSizesThenScan,
  // One CUB scan computing each element's size and bad flag as it reads them and storing the
  // offsets, begins and the tail as it writes: 2 launches before the read.
  kScanOfSizes,
};

}  // namespace tensorbuf::kernels
