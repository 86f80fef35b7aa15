// substr's inputs as the device passes see them (SubstrView), and the broadcast map applied: an
// output element's flat index -> the flat indices of its input string and of its pos/len
// element (core::SubstrMap holds the dims and strides).
#pragma once

#include <cstdint>

#include "core/substr_plan.hpp"
#include "kernels/config.hpp"
#include "kernels/executor.hpp"

namespace tensorbuf::kernels {

// The map's dims that travel inline in the functors: every pass's functor carries the map, and
// the whole core::SubstrMap (kSubstrMaxRank dims, 1.5 KB) would be copied into each of them (a
// CUDA functor is passed by value, as a kernel parameter). A map of more dims (rare: merging
// leaves one or two for the usual broadcasts) is put in executor memory (substr_map_view).
inline constexpr int kSubstrInlineRank = 4;

struct SubstrMapView {
  int rank = 0;
  std::int64_t dims[kSubstrInlineRank] = {};
  std::int64_t input_strides[kSubstrInlineRank] = {};
  std::int64_t pos_strides[kSubstrInlineRank] = {};
  // rank > kSubstrInlineRank: dims, input strides, pos strides, `rank` each, in executor memory.
  const std::int64_t* external = nullptr;
};

template <class Index>
struct SubstrView {
  const std::int64_t* in_offsets = nullptr;
  const std::uint8_t* in_chars = nullptr;
  const Index* pos = nullptr;
  const Index* len = nullptr;
  SubstrMapView map;
};

// `map` as the functors carry it, on `executor`'s side.
template <class Executor>
SubstrMapView substr_map_view(Executor& executor, const core::SubstrMap& map) {
  SubstrMapView view;
  view.rank = map.rank;
  if (map.rank <= kSubstrInlineRank) {
    for (int d = 0; d < map.rank; ++d) {
      view.dims[d] = map.dims[d];
      view.input_strides[d] = map.input_strides[d];
      view.pos_strides[d] = map.pos_strides[d];
    }
    return view;
  }
  const std::int64_t rank = map.rank;
  std::int64_t* table = executor.template scratch<std::int64_t>(3 * rank);
  store_values(executor, table, 3 * rank, [&](std::int64_t k) {
    const std::int64_t d = k % rank;
    return k < rank ? map.dims[d] : k < 2 * rank ? map.input_strides[d] : map.pos_strides[d];
  });
  view.external = table;
  return view;
}

// The map over `rank` dims given as arrays.
TENSORBUF_HOST_DEVICE inline void map_flat(int rank, const std::int64_t* dims,
                                           const std::int64_t* input_strides,
                                           const std::int64_t* pos_strides, std::int64_t flat,
                                           std::int64_t* input_index, std::int64_t* pos_index) {
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

// On the host, from the plan's map (the CPU backend, the error path).
TENSORBUF_HOST_DEVICE inline void map_element(const core::SubstrMap& map, std::int64_t flat,
                                              std::int64_t* input_index, std::int64_t* pos_index) {
  map_flat(map.rank, map.dims, map.input_strides, map.pos_strides, flat, input_index, pos_index);
}

// In the passes, from the map they carry.
TENSORBUF_HOST_DEVICE inline void map_element(const SubstrMapView& map, std::int64_t flat,
                                              std::int64_t* input_index, std::int64_t* pos_index) {
  if (map.rank <= kSubstrInlineRank) {
    map_flat(map.rank, map.dims, map.input_strides, map.pos_strides, flat, input_index, pos_index);
  } else {
    map_flat(map.rank, map.external, map.external + map.rank, map.external + 2 * map.rank, flat,
             input_index, pos_index);
  }
}

}  // namespace tensorbuf::kernels
