// substr's broadcast map: an output element's flat index -> the flat indices of its input
// string and of its pos/len element, NumPy broadcasting through 0 strides (never
// materialised). Plain data, passed by value to kernels.
#pragma once

#include <cstdint>

#include "kernels/config.hpp"

namespace tensorbuf::kernels {

// Output dims of size 1 are dropped and adjacent dims merged where both operands allow, so the
// rank left is at most 62 (every dim >= 2 and the element count fits int64).
inline constexpr int kSubstrMaxRank = 64;

struct SubstrMap {
  int rank = 0;
  std::int64_t dims[kSubstrMaxRank] = {};
  std::int64_t input_strides[kSubstrMaxRank] = {};  // 0 where the input is broadcast
  std::int64_t pos_strides[kSubstrMaxRank] = {};    // 0 where pos/len are broadcast

  TENSORBUF_HD void map(std::int64_t flat, std::int64_t* input_index,
                        std::int64_t* pos_index) const {
    if (rank == 1) {
      *input_index = flat * input_strides[0];
      *pos_index = flat * pos_strides[0];
      return;
    }
    std::int64_t in = 0;
    std::int64_t pos = 0;
    for (int d = rank - 1; d > 0; --d) {
      const std::int64_t q = flat / dims[d];
      const std::int64_t r = flat - q * dims[d];
      in += r * input_strides[d];
      pos += r * pos_strides[d];
      flat = q;
    }
    if (rank > 0) {
      in += flat * input_strides[0];
      pos += flat * pos_strides[0];
    }
    *input_index = in;
    *pos_index = pos;
  }
};

}  // namespace tensorbuf::kernels
