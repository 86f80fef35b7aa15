// substr's inputs as the device passes see them (SubstrView), and the broadcast map applied: an
// output element's flat index -> the flat indices of its input string and of its pos/len
// element (core::SubstrMap holds the dims and strides).
#pragma once

#include <cstdint>

#include "core/substr_plan.hpp"
#include "kernels/config.hpp"

namespace tensorbuf::kernels {

template <class Index>
struct SubstrView {
  const std::int64_t* in_offsets = nullptr;
  const std::uint8_t* in_chars = nullptr;
  const Index* pos = nullptr;
  const Index* len = nullptr;
  core::SubstrMap map;
};

TENSORBUF_HOST_DEVICE inline void map_element(const core::SubstrMap& map, std::int64_t flat,
                                              std::int64_t* input_index, std::int64_t* pos_index) {
  if (map.rank == 1) {
    *input_index = flat * map.input_strides[0];
    *pos_index = flat * map.pos_strides[0];
    return;
  }
  std::int64_t in = 0;
  std::int64_t pos = 0;
  for (int d = map.rank - 1; d > 0; --d) {
    const std::int64_t q = flat / map.dims[d];
    const std::int64_t r = flat - q * map.dims[d];
    in += r * map.input_strides[d];
    pos += r * map.pos_strides[d];
    flat = q;
  }
  if (map.rank > 0) {
    in += flat * map.input_strides[0];
    pos += flat * map.pos_strides[0];
  }
  *input_index = in;
  *pos_index = pos;
}

}  // namespace tensorbuf::kernels
