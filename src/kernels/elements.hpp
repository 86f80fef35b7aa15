// The element mapping of gather_elements and scatter_elements (core/elements_plan.hpp) for both
// executors and the CPU backends: position p of indices -> the tensor element it addresses,
// over the merged dims (up to kInlineElementsRank by value, deeper through executor memory).
#pragma once

#include <cstdint>

#include "core/elements_plan.hpp"
#include "kernels/axis_index.hpp"
#include "kernels/config.hpp"
#include "kernels/executor.hpp"

namespace tensorbuf::kernels {

inline constexpr int kInlineElementsRank = 8;

struct ElementsGeometry {
  int rank = 1;
  int axis = 0;  // in the merged dims
  std::int64_t axis_size = 0;
  std::int64_t axis_stride = 1;
  std::int64_t dims[kInlineElementsRank];
  std::int64_t strides[kInlineElementsRank];
  const std::int64_t* external = nullptr;  // rank > kInlineElementsRank: dims[rank], strides[rank]

  // The tensor offset of position p without its axis coordinate.
  TENSORBUF_HOST_DEVICE std::int64_t base_of(std::int64_t p) const {
    const std::int64_t* dim = rank <= kInlineElementsRank ? dims : external;
    const std::int64_t* stride = rank <= kInlineElementsRank ? strides : external + rank;
    std::int64_t offset = 0;
    for (int d = rank - 1; d > 0; --d) {
      std::int64_t q = 0;
      std::int64_t c = 0;
      divide(p, dim[d], q, c);
      offset += c * stride[d];  // the axis' stride is 0
      p = q;
    }
    return offset + p * stride[0];
  }

  // *target = the tensor offset position p addresses with index `raw`; false when raw is out of
  // range.
  template <class Index>
  TENSORBUF_HOST_DEVICE bool target_of(std::int64_t p, Index raw, std::int64_t* target) const {
    std::int64_t index = 0;
    if (!wrap_axis_index(raw, axis_size, &index)) return false;
    *target = base_of(p) + index * axis_stride;
    return true;
  }
};

// The geometry's inline part; `external` is the caller's when the rank exceeds the inline one.
inline ElementsGeometry make_elements_geometry(const core::ElementsLayout& layout) {
  ElementsGeometry g;
  g.rank = layout.dims.rank();
  g.axis = layout.merged_axis;
  g.axis_size = layout.axis_size;
  g.axis_stride = layout.axis_stride;
  for (int d = 0; d < kInlineElementsRank; ++d) {
    const bool used = d < g.rank;
    g.dims[d] = used ? layout.dims[static_cast<std::size_t>(d)] : 1;
    g.strides[d] = used ? layout.strides[static_cast<std::size_t>(d)] : 0;
  }
  return g;
}

// make_elements_geometry for kernels of `executor`: deep layouts get their dims and strides
// copied into executor memory (by kernels, so a CUDA graph can capture it).
template <class Executor>
ElementsGeometry executor_elements_geometry(Executor& executor, const core::ElementsLayout& layout) {
  ElementsGeometry g = make_elements_geometry(layout);
  if (g.rank > kInlineElementsRank) {
    const int rank = g.rank;
    const std::int64_t count = 2 * static_cast<std::int64_t>(rank);
    std::int64_t* table = executor.template scratch<std::int64_t>(count);
    store_values(executor, table, count, [&](std::int64_t at) {
      return at < rank ? layout.dims[static_cast<std::size_t>(at)]
                       : layout.strides[static_cast<std::size_t>(at - rank)];
    });
    g.external = table;
  }
  return g;
}

}  // namespace tensorbuf::kernels
