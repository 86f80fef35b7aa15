// The index rows of the *_nd ops (core/nd_indices.hpp), shared by their CPU backends and their
// device drivers: the row -> slice mapping with its bounds check (one unsigned compare per index
// component, so negative components are out of range), the first bad row, and its components
// read back for the error text.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/config.hpp"
#include "kernels/executor.hpp"

namespace tensorbuf::kernels {

// "No bad row" in a first-bad-row cell (an atomic min over rows).
inline constexpr std::int64_t kNoBadRow = std::numeric_limits<std::int64_t>::max();

// Index depths up to this are passed to kernels by value; deeper ones through memory.
inline constexpr int kInlineDepth = 8;

// Maps an index row to its slice: slice = sum_d idx[d] * stride[d], after checking
// 0 <= idx[d] < dim[d] with one unsigned compare per component (negatives never wrap).
struct ScatterGeometry {
  int depth = 1;
  std::int64_t slice_size = 0;
  // Filled by make_geometry (no member initializers: their zero fill, a `rep stos` of 136
  // bytes, was 6% of a small CPU scatter call).
  std::int64_t dims[kInlineDepth];
  std::int64_t strides[kInlineDepth];
  const std::int64_t* external = nullptr;  // depth > kInlineDepth: dims[D], then strides[D]

  template <class Index>
  TENSORBUF_HOST_DEVICE bool slice_of(const Index* index, std::int64_t* slice) const {
    if (depth == 1) {
      const auto v = static_cast<std::uint64_t>(static_cast<std::int64_t>(index[0]));
      if (v >= static_cast<std::uint64_t>(dims[0])) return false;
      *slice = static_cast<std::int64_t>(v);
      return true;
    }
    const std::int64_t* bound = depth <= kInlineDepth ? dims : external;
    const std::int64_t* stride = depth <= kInlineDepth ? strides : external + depth;
    std::int64_t sum = 0;
    for (int d = 0; d < depth; ++d) {
      const auto v = static_cast<std::uint64_t>(static_cast<std::int64_t>(index[d]));
      if (v >= static_cast<std::uint64_t>(bound[d])) return false;
      sum += static_cast<std::int64_t>(v) * stride[d];
    }
    *slice = sum;
    return true;
  }
};

// The geometry of `depth` index components bounded by `bounds` (the indexed tensor's dims after
// any batch dims) with `strides` in slices; `external` (2 * depth values: dims, then strides)
// must be set by the caller when depth > kInlineDepth.
inline ScatterGeometry make_geometry(int depth, std::int64_t slice_size, const std::int64_t* bounds,
                                     const std::int64_t* strides) {
  ScatterGeometry geometry;
  geometry.depth = depth;
  geometry.slice_size = slice_size;
  // Every entry written, unused ones as 0.
  for (int d = 0; d < kInlineDepth; ++d) {
    const bool used = d < depth;
    geometry.dims[d] = used ? bounds[d] : 0;
    geometry.strides[d] = used ? strides[d] : 0;
  }
  return geometry;
}

// make_geometry for kernels of `executor`: deep indices get their bounds and strides copied
// into executor memory.
template <class Executor>
ScatterGeometry executor_geometry(Executor& executor, int depth, std::int64_t slice_size,
                                  const std::int64_t* bounds, const std::int64_t* strides) {
  ScatterGeometry geometry = make_geometry(depth, slice_size, bounds, strides);
  if (depth > kInlineDepth) {
    const std::int64_t count = 2 * static_cast<std::int64_t>(depth);
    std::int64_t* table = executor.template scratch<std::int64_t>(count);
    store_values(executor, table, count,
                 [&](std::int64_t at) { return at < depth ? bounds[at] : strides[at - depth]; });
    geometry.external = table;
  }
  return geometry;
}

// Splits a flat (row, element-of-slice) position; 32-bit division when it fits.
TENSORBUF_HOST_DEVICE inline void split_position(std::int64_t i, std::int64_t slice_size,
                                                 std::int64_t* row, std::int64_t* element) {
  if (slice_size == 1) {
    *row = i;
    *element = 0;
  } else {
    divide(i, slice_size, *row, *element);
  }
}

// Records the smallest bad row.
template <class Index>
struct ValidateRowsFunctor {
  const Index* indices;
  ScatterGeometry geometry;
  std::int64_t* first_bad;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t row) const {
    std::int64_t slice = 0;
    if (!geometry.slice_of(indices + row * geometry.depth, &slice)) atomic_min_i64(first_bad, row);
  }
};

// The result for bad row `row` (a core::OpResult with `bad_components`): reads its `depth`
// components back (error path only).
template <class Result, class Executor, class Index>
Result bad_row_result(Executor& executor, int depth, const Index* indices, std::int64_t row) {
  Result result;
  result.first_bad_index = row;
  for (int d = 0; d < depth; ++d) {
    result.bad_components.push_back(
        static_cast<std::int64_t>(executor.read_value(indices + row * depth + d)));
  }
  return result;
}

}  // namespace tensorbuf::kernels
