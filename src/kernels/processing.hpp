// NormalizeOp's arithmetic (spec/processing.md 1 rule 4), the one rule of the fused Processor's
// normalize stage: two float32 roundings, a true division (Java's; never a reciprocal product).
#pragma once

#include "kernels/config.hpp"

namespace tensorbuf::kernels {

TENSORBUF_HOST_DEVICE inline float normalize_element(float x, float mean, float stddev) {
  return (x - mean) / stddev;
}

}  // namespace tensorbuf::kernels
