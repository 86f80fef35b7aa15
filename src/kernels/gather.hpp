// gather (spec/indexing.md 4) over an executor (executor.hpp): src/cuda runs it with the CUDA
// executor, tests with the host executor, both policies.
//
// With params viewed as [B, O, s, I] and the output as [B, O, N, I] (core/gather_plan.hpp), one
// pass over the output's carriers (the widest word that divides a row of I elements and the
// pointers' alignment: the op only moves bytes):
//   out[(q, n), t] = params[(q, wrap(indices[batch(q), n])), t]   (zero when the index is bad)
// with q = batch * O + o. kDrop leaves zeros for a bad index and never waits. kError records
// the smallest bad position of indices with an atomic min in the same pass and reads it back
// (the op's only host wait); the output is then discarded. When the output is empty (O or I
// is 0) a pass over the indices alone checks them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/gather_plan.hpp"
#include "kernels/axis_index.hpp"
#include "kernels/carriers.hpp"
#include "kernels/config.hpp"

namespace tensorbuf::kernels {

// One output carrier: position i is (row, t) with t < row_carriers, row = q * N + n.
template <bool kRecordBad, class Carrier, class Index>
struct GatherFunctor {
  const Index* indices;
  const Carrier* params;
  Carrier* out;
  std::int64_t row_carriers;       // carriers per output row (I elements)
  std::int64_t indices_per_batch;  // N
  std::int64_t outer;              // O; 0: no batch dims (every row in batch 0)
  std::int64_t axis_size;          // s
  std::int64_t* first_bad;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t i) const {
    std::int64_t row = 0;
    std::int64_t t = 0;
    split_position(i, row_carriers, &row, &t);
    std::int64_t q = 0;
    std::int64_t n = 0;
    divide(row, indices_per_batch, q, n);
    std::int64_t position = n;  // in indices
    if (outer != 0) {
      std::int64_t batch = 0;
      std::int64_t o = 0;
      divide(q, outer, batch, o);
      position += batch * indices_per_batch;
    }
    std::int64_t index = 0;
    if (!wrap_axis_index(indices[position], axis_size, &index)) {
      if constexpr (kRecordBad) {
        if (t == 0) atomic_min_i64(first_bad, position);
      }
      out[i] = Carrier{};
      return;
    }
    out[i] = params[(q * axis_size + index) * row_carriers + t];
  }
};

// The element pass with the widest carrier.
template <bool kRecordBad, class Index, class Executor>
void run_gather_pass(Executor& ex, const core::GatherPlan& plan, const Index* indices,
                     const void* params, void* out, std::int64_t* first_bad) {
  const std::size_t row_bytes = static_cast<std::size_t>(plan.inner) * plan.element_size;
  const std::size_t carrier = carrier_size(
      row_bytes, reinterpret_cast<std::uintptr_t>(params) | reinterpret_cast<std::uintptr_t>(out));
  const auto row_carriers = static_cast<std::int64_t>(row_bytes / carrier);
  const std::int64_t rows = plan.batches * plan.outer * plan.indices_per_batch;
  const std::int64_t outer = plan.batch_dims > 0 ? plan.outer : 0;
  auto pass = [&](auto tag) {
    using Carrier = decltype(tag);
    ex.for_each_index(rows * row_carriers,
                      GatherFunctor<kRecordBad, Carrier, Index>{
                          indices, static_cast<const Carrier*>(params), static_cast<Carrier*>(out),
                          row_carriers, plan.indices_per_batch, outer, plan.axis_size, first_bad});
  };
  with_carrier(carrier, pass);
}

// The whole op on `ex`; `Index` is the indices' type (int32 or int64).
template <class Index, class Executor>
core::AxisIndexResult run_gather(Executor& ex, const core::GatherPlan& plan,
                                 const core::GatherBuffers& buffers) {
  core::AxisIndexResult result;
  if (plan.num_indices == 0) return result;
  const auto* indices = static_cast<const Index*>(buffers.indices);
  const bool error_policy = plan.policy == OutOfBoundsPolicy::kError;
  std::int64_t* first_bad = nullptr;
  if (error_policy) {
    first_bad = ex.template scratch<std::int64_t>(1);
    ex.fill(first_bad, kNoBadRow, 1);
  }
  const bool empty_output = plan.outer * plan.inner * static_cast<std::int64_t>(plan.element_size) == 0;
  if (empty_output) {
    if (error_policy) {
      ex.for_each_index(plan.num_indices,
                        ValidateAxisIndicesFunctor<Index>{indices, plan.axis_size, first_bad});
    }
  } else if (error_policy) {
    run_gather_pass<true>(ex, plan, indices, buffers.params, buffers.out, first_bad);
  } else {
    run_gather_pass<false>(ex, plan, indices, buffers.params, buffers.out, first_bad);
  }
  if (error_policy) {
    const std::int64_t bad = ex.read_value(first_bad);
    if (bad != kNoBadRow) return bad_axis_index_result(ex, indices, bad);
  }
  return result;
}

}  // namespace tensorbuf::kernels
