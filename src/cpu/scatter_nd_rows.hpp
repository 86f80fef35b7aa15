// Row helpers shared by the CPU scatter's two strategies (output owners in scatter_nd.cpp,
// buckets in scatter_nd_buckets.hpp): a row's slice, applying a row, the bad-row result.
#pragma once

#include <cstdint>
#include <vector>

#include "core/scatter_nd_plan.hpp"
#include "kernels/scatter_nd_combine.hpp"

namespace tensorbuf::cpu::scatter_rows {

using core::ScatterNdPlan;
using core::ScatterNdResult;
using core::ScatterOp;
using kernels::ScatterGeometry;

// The geometry of `plan`; deep indices keep their bounds and strides in `table`.
inline ScatterGeometry host_geometry(const ScatterNdPlan& plan, std::vector<std::int64_t>& table) {
  ScatterGeometry geometry = kernels::make_geometry(plan);
  if (plan.depth > kernels::kInlineDepth) {
    table.assign(plan.tensor_dims.begin(), plan.tensor_dims.begin() + plan.depth);
    table.insert(table.end(), plan.slice_strides.begin(), plan.slice_strides.end());
    geometry.external = table.data();
  }
  return geometry;
}

template <class Index>
ScatterNdResult bad_row(const ScatterNdPlan& plan, const Index* indices, std::int64_t row) {
  ScatterNdResult result;
  result.first_bad_index = row;
  for (int d = 0; d < plan.depth; ++d) {
    result.bad_components.push_back(static_cast<std::int64_t>(indices[row * plan.depth + d]));
  }
  return result;
}

// `out` never overlaps `update`: the op copies an input that aliases the tensor it writes.
// Whole cache lines first, each a fixed-length loop the compiler unrolls into a few vector
// steps: a row of 16 floats then costs no loop overhead (a variable-length loop took ~1 ns more
// per row than a user's loop, which GCC unrolls this way).
template <ScatterOp Op, class T>
[[gnu::always_inline]] inline void apply_row(T* __restrict out, const T* __restrict update,
                                             std::int64_t count) {
  constexpr std::int64_t kLine = 64 / sizeof(T);
  std::int64_t j = 0;
  for (; j + kLine <= count; j += kLine) {
    for (std::int64_t k = j; k < j + kLine; ++k) {
      out[k] = kernels::Combine<Op>::apply(out[k], update[k]);
    }
  }
  for (; j < count; ++j) out[j] = kernels::Combine<Op>::apply(out[j], update[j]);
}

// Row -> slice, false for a bad row. kDepth1: the common depth, without the loop.
template <bool kDepth1, class Index>
inline bool slice_of(const ScatterNdPlan& plan, const ScatterGeometry& geometry,
                     const Index* indices, std::int64_t row, std::int64_t* slice) {
  if constexpr (kDepth1) {
    const auto v = static_cast<std::uint64_t>(static_cast<std::int64_t>(indices[row]));
    *slice = static_cast<std::int64_t>(v);
    return v < static_cast<std::uint64_t>(geometry.dims[0]);
  } else {
    return geometry.slice_of(indices + row * plan.depth, slice);
  }
}

}  // namespace tensorbuf::cpu::scatter_rows
