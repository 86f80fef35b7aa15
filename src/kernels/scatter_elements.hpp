// scatter_elements (spec/indexing.md 2) over an executor (executor.hpp): src/cuda runs it with
// the CUDA executor, tests with the host executor.
//
// kError checks every index first (an atomic min over positions) and reads the first bad one
// back (the op's only host wait), before anything is written, so an in-place call that fails
// leaves its tensor as it was. kDrop skips bad positions and never waits. Then out = tensor
// (unless in place) and either
// - one pass over positions with atomics (duplicates combine in an unspecified order; kNone
//   keeps one of them), or
// - deterministic: keys = the target element of each position, a stable sort_by_key(keys,
//   positions), and one pass in which the first position of each run of equal keys reduces its
//   run in position order, the order the CPU uses: bit-equal to the CPU (the scatter ops'
//   OrderedReduceFunctor with one-element slices).
#pragma once

#include <cstdint>
#include <limits>

#include "core/elements_plan.hpp"
#include "kernels/axis_index.hpp"
#include "kernels/elements.hpp"
#include "kernels/scatter_nd.hpp"

namespace tensorbuf::kernels {

template <core::ScatterOp Op, class T, class Index>
struct ScatterElementsAtomicFunctor {
  T* out;
  const Index* indices;
  const T* updates;
  ElementsGeometry geometry;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t p) const {
    std::int64_t target = 0;
    if (!geometry.target_of(p, indices[p], &target)) return;  // kDrop
    atomic_combine<Op>(out + target, updates[p]);
  }
};

// keys[p] = the target of position p (the largest Key for a bad one: sorted last, skipped),
// positions[p] = p.
template <class Key, class Index>
struct ElementKeysFunctor {
  const Index* indices;
  ElementsGeometry geometry;
  Key* keys;
  std::int64_t* positions;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t p) const {
    std::int64_t target = 0;
    const bool good = geometry.target_of(p, indices[p], &target);
    keys[p] = good ? static_cast<Key>(target) : std::numeric_limits<Key>::max();
    positions[p] = p;
  }
};

template <core::ScatterOp Op, class T, class Key, class Index, class Executor, class CopyTensor>
void run_scatter_elements_deterministic(Executor& ex, std::int64_t n,
                                        const ElementsGeometry& geometry, const Index* indices,
                                        const T* updates, T* out, CopyTensor&& copy_tensor) {
  Key* keys = ex.template scratch<Key>(n);
  std::int64_t* positions = ex.template scratch<std::int64_t>(n);
  ex.for_each_index(n, ElementKeysFunctor<Key, Index>{indices, geometry, keys, positions});
  sort_rows_by_slice(ex, keys, positions, n);
  copy_tensor();
  ex.for_each_index(n, OrderedReduceFunctor<Op, T, Key>{out, updates, keys, positions, n, 1});
}

// The whole op on `ex`: out = tensor (unless in place), then the positions applied.
template <core::ScatterOp Op, class T, class Index, class Executor>
core::AxisIndexResult run_scatter_elements(Executor& ex, const core::ScatterElementsPlan& plan,
                                           const core::ScatterElementsBuffers& buffers) {
  const auto* tensor = static_cast<const T*>(buffers.tensor);
  const auto* indices = static_cast<const Index*>(buffers.indices);
  const auto* updates = static_cast<const T*>(buffers.updates);
  auto* out = static_cast<T*>(buffers.out);
  const std::int64_t n = plan.layout.num_positions;
  // out = tensor, only once all scratch is taken (a failed allocation leaves `out` as it was).
  auto copy_tensor = [&] {
    if (static_cast<const void*>(out) != buffers.tensor) {
      ex.copy(out, tensor, static_cast<std::size_t>(plan.num_elements) * sizeof(T));
    }
  };
  if (n == 0) {
    copy_tensor();
    return {};
  }
  const ElementsGeometry geometry = executor_elements_geometry(ex, plan.layout);
  if (plan.policy == OutOfBoundsPolicy::kError) {
    std::int64_t* first_bad = ex.template scratch<std::int64_t>(1);
    ex.fill(first_bad, kNoBadRow, 1);
    ex.for_each_index(n, ValidateAxisIndicesFunctor<Index>{indices, plan.layout.axis_size,
                                                           first_bad});
    const std::int64_t bad = ex.read_value(first_bad);
    if (bad != kNoBadRow) return bad_axis_index_result(ex, indices, bad);
  }
  if (plan.deterministic) {
    if (plan.num_elements < static_cast<std::int64_t>(std::numeric_limits<std::uint32_t>::max())) {
      run_scatter_elements_deterministic<Op, T, std::uint32_t>(ex, n, geometry, indices, updates,
                                                               out, copy_tensor);
    } else {
      run_scatter_elements_deterministic<Op, T, std::uint64_t>(ex, n, geometry, indices, updates,
                                                               out, copy_tensor);
    }
    return {};
  }
  copy_tensor();
  ex.for_each_index(n, ScatterElementsAtomicFunctor<Op, T, Index>{out, indices, updates, geometry});
  return {};
}

}  // namespace tensorbuf::kernels
