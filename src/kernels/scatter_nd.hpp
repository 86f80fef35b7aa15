// The scatter ops' device algorithm, written over an executor (executor.hpp): src/cuda runs it
// with the CUDA executor, tests with the host executor.
//
// Default path: one grid-stride pass over (row, element-of-slice) with atomics (duplicates
// combine in an unspecified order; `_update` keeps one of them); float add/sub take runs of
// 4 (float32) or 2 (float16, bfloat16) elements per packed atomic when the slice allows.
// Deterministic path: keys = slice of each row, stable sort_by_key(keys, rows), then one pass
// in which the first position of each run of equal keys reduces its run in row order, the
// order the CPU uses, so results equal the CPU's bit for bit.
// kDrop skips bad rows. kError finds the first bad row with an atomic min on the device and
// reads it back (the op's only host wait): before anything is written when the op runs in
// place, is deterministic or has empty slices; fused with the scatter into the fresh output
// otherwise (the output is then discarded).
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "core/scatter_nd_plan.hpp"
#include "kernels/config.hpp"
#include "kernels/executor.hpp"
#include "kernels/scatter_nd_atomics.hpp"
#include "kernels/scatter_nd_combine.hpp"

namespace tensorbuf::kernels {

// out[slice(row) * S + j + k] op= updates[row * S + j + k] for k < W, where position i covers
// (row, j = W * chunk) (S % W == 0); bad rows are skipped (kRecordBad: and the smallest one
// recorded).
template <core::ScatterOp Op, bool kRecordBad, class T, class Index, int W = 1>
struct ScatterAtomicFunctor {
  T* out;
  const Index* indices;
  const T* updates;
  ScatterGeometry geometry;
  std::int64_t* first_bad;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t i) const {
    std::int64_t row = 0;
    std::int64_t chunk = 0;
    split_position(i, geometry.slice_size / W, &row, &chunk);
    std::int64_t slice = 0;
    if (!geometry.slice_of(indices + row * geometry.depth, &slice)) {
      if constexpr (kRecordBad) {
        if (chunk == 0) atomic_min_i64(first_bad, row);
      }
      return;
    }
    T* target = out + slice * geometry.slice_size + chunk * W;
    const T* values = updates + row * geometry.slice_size + chunk * W;
    if constexpr (W == 1) {
      atomic_combine<Op>(target, *values);
    } else {
      atomic_combine_packed<Op, T, W>(target, values);
    }
  }
};

// The atomic pass over `work` elements, kPackedLanes at a time where the slice size allows.
template <core::ScatterOp Op, bool kRecordBad, class T, class Index, class Executor>
void run_atomic_pass(Executor& executor, std::int64_t work, const ScatterGeometry& geometry, T* out,
                     const Index* indices, const T* updates, std::int64_t* first_bad) {
  // Not kLanes: another op's kernels own that name (a TU may include both).
  constexpr int kPack = kPackedLanes<Op, T>;
  if constexpr (kPack > 1) {
    if (geometry.slice_size % kPack == 0) {
      executor.for_each_index(work / kPack, ScatterAtomicFunctor<Op, kRecordBad, T, Index, kPack>{
                                                out, indices, updates, geometry, first_bad});
      return;
    }
  }
  executor.for_each_index(work, ScatterAtomicFunctor<Op, kRecordBad, T, Index>{
                                    out, indices, updates, geometry, first_bad});
}

// keys[row] = slice of the row (`sentinel` for a bad row, sorted last), rows[row] = row.
template <class Key, class Index>
struct SliceKeysFunctor {
  const Index* indices;
  ScatterGeometry geometry;
  Key* keys;
  std::int64_t* rows;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t row) const {
    std::int64_t slice = 0;
    const bool good = geometry.slice_of(indices + row * geometry.depth, &slice);
    keys[row] = good ? static_cast<Key>(slice) : std::numeric_limits<Key>::max();
    rows[row] = row;
  }
};

// For position p of the sorted rows that starts a run of equal keys, and element j: folds
// the run's updates into out[key * S + j] in row order.
template <core::ScatterOp Op, class T, class Key>
struct OrderedReduceFunctor {
  T* out;
  const T* updates;
  const Key* keys;
  const std::int64_t* rows;
  std::int64_t num_rows;
  std::int64_t slice_size;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t i) const {
    std::int64_t p = 0;
    std::int64_t element = 0;
    split_position(i, slice_size, &p, &element);
    const Key key = keys[p];
    if (key == std::numeric_limits<Key>::max()) return;  // bad rows (kDrop)
    if (p > 0 && keys[p - 1] == key) return;             // not the start of the run
    T* target = out + static_cast<std::int64_t>(key) * slice_size + element;
    T acc = *target;
    for (std::int64_t q = p; q < num_rows && keys[q] == key; ++q) {
      acc = Combine<Op>::apply(acc, updates[rows[q] * slice_size + element]);
    }
    *target = acc;
  }
};

// The sort of the deterministic path. The CUDA backend overloads it (found by argument-
// dependent lookup) so that CUB's radix sort is compiled in one file only.
template <class Executor, class Key>
void sort_rows_by_slice(Executor& executor, Key* keys, std::int64_t* rows, std::int64_t n) {
  executor.sort_by_key(keys, rows, n);
}

// The geometry of `plan` for kernels of `executor` (executor_geometry, scatter_nd_combine.hpp).
template <class Executor>
ScatterGeometry executor_geometry(Executor& executor, const core::ScatterNdPlan& plan) {
  return executor_geometry(executor, plan.depth, plan.slice_size, plan.tensor_dims.data(),
                           plan.slice_strides.data());
}

// `copy_tensor` writes out = tensor (out of place); it runs after the sort, once every scratch
// buffer is taken, so a failed allocation leaves `out` as it was.
template <core::ScatterOp Op, class T, class Key, class Index, class Executor, class CopyTensor>
void run_scatter_nd_deterministic(Executor& executor, const core::ScatterNdPlan& plan,
                                  const ScatterGeometry& geometry, const Index* indices,
                                  const T* updates, T* out, CopyTensor&& copy_tensor) {
  const std::int64_t n = plan.num_rows;
  Key* keys = executor.template scratch<Key>(n);
  std::int64_t* rows = executor.template scratch<std::int64_t>(n);
  executor.for_each_index(n, SliceKeysFunctor<Key, Index>{indices, geometry, keys, rows});
  sort_rows_by_slice(executor, keys, rows, n);
  copy_tensor();
  executor.for_each_index(n * plan.slice_size, OrderedReduceFunctor<Op, T, Key>{
                                                   out, updates, keys, rows, n, plan.slice_size});
}

// The whole op on `executor`: out = tensor (unless in place), then the rows applied.
template <core::ScatterOp Op, class T, class Index, class Executor>
core::ScatterNdResult run_scatter_nd(Executor& executor, const core::ScatterNdPlan& plan,
                                     const core::ScatterNdBuffers& buffers) {
  const auto* tensor = static_cast<const T*>(buffers.tensor);
  const auto* indices = static_cast<const Index*>(buffers.indices);
  const auto* updates = static_cast<const T*>(buffers.updates);
  auto* out = static_cast<T*>(buffers.out);
  const bool in_place = static_cast<const void*>(out) == buffers.tensor;
  const std::int64_t n = plan.num_rows;
  const std::int64_t work = n * plan.slice_size;
  const bool error_policy = plan.policy == OutOfBoundsPolicy::kError;
  const bool check_first = error_policy && (in_place || plan.deterministic || work == 0);
  core::ScatterNdResult result;

  ScatterGeometry geometry;
  if (n > 0) geometry = executor_geometry(executor, plan);
  std::int64_t* first_bad = nullptr;
  if (error_policy && n > 0) {
    first_bad = executor.template scratch<std::int64_t>(1);
    executor.fill(first_bad, kNoBadRow, 1);
  }
  if (check_first && n > 0) {
    executor.for_each_index(n, ValidateRowsFunctor<Index>{indices, geometry, first_bad});
    const std::int64_t bad = executor.read_value(first_bad);
    if (bad != kNoBadRow) {
      return bad_row_result<core::ScatterNdResult>(executor, plan.depth, indices, bad);
    }
  }
  // out = tensor, only once all scratch is taken (the strong guarantee on a failed allocation).
  auto copy_tensor = [&] {
    if (!in_place) {
      executor.copy(out, tensor, static_cast<std::size_t>(plan.num_elements) * sizeof(T));
    }
  };
  if (work > 0 && plan.deterministic) {
    if (plan.num_slices < static_cast<std::int64_t>(std::numeric_limits<std::uint32_t>::max())) {
      run_scatter_nd_deterministic<Op, T, std::uint32_t>(executor, plan, geometry, indices, updates,
                                                         out, copy_tensor);
    } else {
      run_scatter_nd_deterministic<Op, T, std::uint64_t>(executor, plan, geometry, indices, updates,
                                                         out, copy_tensor);
    }
    return result;
  }
  copy_tensor();
  if (work == 0) return result;
  if (error_policy && !check_first) {
    run_atomic_pass<Op, true>(executor, work, geometry, out, indices, updates, first_bad);
    const std::int64_t bad = executor.read_value(first_bad);
    if (bad != kNoBadRow) {
      return bad_row_result<core::ScatterNdResult>(executor, plan.depth, indices, bad);
    }
    return result;
  }
  run_atomic_pass<Op, false>(executor, work, geometry, out, indices, updates,
                             static_cast<std::int64_t*>(nullptr));
  return result;
}

}  // namespace tensorbuf::kernels
