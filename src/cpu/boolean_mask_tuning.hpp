// Tuning of the CPU boolean_mask backend, for tests and the A/B bench.
#pragma once

#include <cstdint>

namespace tensorbuf::cpu {

enum class MaskStreaming {
  kAuto,  // outputs of kStreamOutputBytes or more (cpu/streaming_copy.hpp)
  kNever,
  kAlways,  // every output, so that tests cover the streamed form on small inputs
};

inline constexpr std::int64_t kAutoPrefetch = -1;

struct BooleanMaskTuning {
  MaskStreaming streaming = MaskStreaming::kAuto;
  // Bytes of source prefetched ahead of the AVX-512 compress: kAutoPrefetch (the streamed
  // output's distance on streamed outputs, none on others), 0 none, or that distance.
  std::int64_t prefetch_bytes = kAutoPrefetch;
};

void set_boolean_mask_tuning(const BooleanMaskTuning& tuning);
BooleanMaskTuning boolean_mask_tuning();

}  // namespace tensorbuf::cpu
