// gather_elements (spec/indexing.md 4) over an executor (executor.hpp): src/cuda runs it with
// the CUDA executor, tests with the host executor, both policies. One pass over the output
// (indices' shape), an element each, moved as an unsigned word of the element's size:
//   out[p] = params[base(p) + wrap(indices[p]) * axis_stride]   (zero when the index is bad)
// kDrop never waits; kError records the smallest bad position with an atomic min in the same
// pass and reads it back (the op's only host wait); the output is then discarded.
#pragma once

#include <cstdint>

#include "core/elements_plan.hpp"
#include "kernels/axis_index.hpp"
#include "kernels/config.hpp"
#include "kernels/elements.hpp"

namespace tensorbuf::kernels {

template <bool kRecordBad, class Word, class Index>
struct GatherElementsFunctor {
  const Index* indices;
  const Word* params;
  Word* out;
  ElementsGeometry geometry;
  std::int64_t* first_bad;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t p) const {
    std::int64_t source = 0;
    if (!geometry.target_of(p, indices[p], &source)) {
      if constexpr (kRecordBad) atomic_min_i64(first_bad, p);
      out[p] = Word{};
      return;
    }
    out[p] = params[source];
  }
};

template <class Index, class Executor>
core::AxisIndexResult run_gather_elements(Executor& ex, const core::GatherElementsPlan& plan,
                                          const core::GatherElementsBuffers& buffers) {
  core::AxisIndexResult result;
  const std::int64_t n = plan.layout.num_positions;
  if (n == 0) return result;
  const auto* indices = static_cast<const Index*>(buffers.indices);
  const bool error_policy = plan.policy == OutOfBoundsPolicy::kError;
  const ElementsGeometry geometry = executor_elements_geometry(ex, plan.layout);
  std::int64_t* first_bad = nullptr;
  if (error_policy) {
    first_bad = ex.template scratch<std::int64_t>(1);
    ex.fill(first_bad, kNoBadRow, 1);
  }
  auto pass = [&](auto tag) {
    using Word = decltype(tag);
    const auto* params = static_cast<const Word*>(buffers.params);
    auto* out = static_cast<Word*>(buffers.out);
    if (error_policy) {
      ex.for_each_index(n, GatherElementsFunctor<true, Word, Index>{indices, params, out, geometry,
                                                                    first_bad});
    } else {
      ex.for_each_index(n, GatherElementsFunctor<false, Word, Index>{indices, params, out,
                                                                     geometry, first_bad});
    }
  };
  switch (plan.element_size) {
    case 1:
      pass(std::uint8_t{});
      break;
    case 2:
      pass(std::uint16_t{});
      break;
    case 4:
      pass(std::uint32_t{});
      break;
    default:
      pass(std::uint64_t{});
      break;
  }
  if (error_policy) {
    const std::int64_t bad = ex.read_value(first_bad);
    if (bad != kNoBadRow) return bad_axis_index_result(ex, indices, bad);
  }
  return result;
}

}  // namespace tensorbuf::kernels
