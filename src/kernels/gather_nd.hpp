// gather_nd (spec/indexing.md 3) over an executor (executor.hpp): src/cuda runs it with the CUDA
// executor, tests with the host executor, both policies.
//
// With params viewed as [B, params.shape[b:b+D], S] (core/gather_nd_plan.hpp), one pass over
// the output's carriers (the widest word that divides a row's bytes and the pointers'
// alignment: the op only moves bytes):
//   out[row, t] = params[batch(row), slice(row), t]   (zero when the row is bad)
// The row -> slice mapping and its bounds check are the scatter ops' (nd_rows.hpp), so negative
// components are out of range. kDrop leaves zeros for a bad row and never waits. kError records
// the smallest bad row with an atomic min in the same pass and reads it back (the op's only
// host wait); the output is then discarded. Rows with empty slices move nothing, so under
// kError a pass over the rows alone checks them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/gather_nd_plan.hpp"
#include "kernels/carriers.hpp"
#include "kernels/config.hpp"
#include "kernels/nd_rows.hpp"

namespace tensorbuf::kernels {

// One output carrier: position i is (row, t) with t < row_carriers.
template <bool kRecordBad, class Carrier, class Index>
struct GatherNdFunctor {
  const Index* indices;
  const Carrier* params;
  Carrier* out;
  ScatterGeometry geometry;
  std::int64_t row_carriers;    // carriers per output row (one slice)
  std::int64_t rows_per_batch;  // R; 0: no batch dims (every row in batch 0)
  std::int64_t batch_carriers;  // carriers per params batch
  std::int64_t* first_bad;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t i) const {
    std::int64_t row = 0;
    std::int64_t t = 0;
    split_position(i, row_carriers, &row, &t);
    std::int64_t slice = 0;
    if (!geometry.slice_of(indices + row * geometry.depth, &slice)) {
      if constexpr (kRecordBad) {
        if (t == 0) atomic_min_i64(first_bad, row);
      }
      out[i] = Carrier{};
      return;
    }
    std::int64_t source = slice * row_carriers + t;
    if (rows_per_batch != 0) {
      std::int64_t batch = 0;
      std::int64_t rest = 0;
      divide(row, rows_per_batch, batch, rest);
      source += batch * batch_carriers;
    }
    out[i] = params[source];
  }
};

// The element pass with the widest carrier.
template <bool kRecordBad, class Index, class Executor>
void run_gather_nd_pass(Executor& ex, const core::GatherNdPlan& plan,
                        const ScatterGeometry& geometry, const Index* indices, const void* params,
                        void* out, std::int64_t* first_bad) {
  const std::size_t row_bytes = static_cast<std::size_t>(plan.slice_size) * plan.element_size;
  const std::size_t carrier = carrier_size(
      row_bytes, reinterpret_cast<std::uintptr_t>(params) | reinterpret_cast<std::uintptr_t>(out));
  const auto row_carriers = static_cast<std::int64_t>(row_bytes / carrier);
  const std::int64_t rows_per_batch = plan.batch_dims > 0 ? plan.rows_per_batch : 0;
  const std::int64_t batch_carriers = plan.slices_per_batch * row_carriers;
  auto pass = [&](auto tag) {
    using Carrier = decltype(tag);
    ex.for_each_index(plan.num_rows * row_carriers,
                      GatherNdFunctor<kRecordBad, Carrier, Index>{
                          indices, static_cast<const Carrier*>(params), static_cast<Carrier*>(out),
                          geometry, row_carriers, rows_per_batch, batch_carriers, first_bad});
  };
  with_carrier(carrier, pass);
}

// The whole op on `ex`; `Index` is the indices' type (int32 or int64).
template <class Index, class Executor>
core::GatherNdResult run_gather_nd(Executor& ex, const core::GatherNdPlan& plan,
                                   const core::GatherNdBuffers& buffers) {
  core::GatherNdResult result;
  const std::int64_t n = plan.num_rows;
  if (n == 0) return result;
  const auto* indices = static_cast<const Index*>(buffers.indices);
  const bool error_policy = plan.policy == OutOfBoundsPolicy::kError;
  const ScatterGeometry geometry = executor_geometry(
      ex, plan.depth, plan.slice_size, plan.index_bounds.data(), plan.slice_strides.data());
  std::int64_t* first_bad = nullptr;
  if (error_policy) {
    first_bad = ex.template scratch<std::int64_t>(1);
    ex.fill(first_bad, kNoBadRow, 1);
  }
  if (plan.slice_size * static_cast<std::int64_t>(plan.element_size) == 0) {
    if (error_policy)
      ex.for_each_index(n, ValidateRowsFunctor<Index>{indices, geometry, first_bad});
  } else if (error_policy) {
    run_gather_nd_pass<true>(ex, plan, geometry, indices, buffers.params, buffers.out, first_bad);
  } else {
    run_gather_nd_pass<false>(ex, plan, geometry, indices, buffers.params, buffers.out, first_bad);
  }
  if (error_policy) {
    const std::int64_t bad = ex.read_value(first_bad);
    if (bad != kNoBadRow) {
      return bad_row_result<core::GatherNdResult>(ex, plan.depth, indices, bad);
    }
  }
  return result;
}

}  // namespace tensorbuf::kernels
