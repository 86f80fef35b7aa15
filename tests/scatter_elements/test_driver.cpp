// The CUDA backend's driver (src/kernels/scatter_elements.hpp) on the host executor, whose
// reverse order flushes out order assumptions: the deterministic path equals the reference in
// row-major order for every reduction, the atomic path equals it in the executor's (reverse)
// order, kError writes nothing (in place: the tensor unchanged), the kDrop form is captured
// once and replayed on new data, and kError is blocked in a capture.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "core/plan_elements.hpp"
#include "kernels/host_executor.hpp"
#include "kernels/scatter_elements.hpp"
#include "scatter_elements/reference.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::mask_update::from_bytes;
namespace el = testing::elements;
namespace sc = testing::scattering;

core::ScatterElementsPlan plan_of(const sc::ScatterCase& s, OutOfBoundsPolicy policy,
                                  bool deterministic) {
  const TensorBuffer tensor = from_bytes(s.c.dtype, Shape(s.c.tensor_shape), s.c.tensor);
  const TensorBuffer updates = from_bytes(s.c.dtype, Shape(s.c.indices_shape), s.updates);
  core::ScatterElementsPlan plan = core::plan_scatter_elements(
      tensor, el::indices_buffer(s.c), updates,
      {Device::cpu(), policy, deterministic, s.c.axis, s.reduction, {}});
  plan.policy = policy;
  plan.deterministic = deterministic;
  return plan;
}

template <core::ScatterOp Op, class T>
core::AxisIndexResult run_typed(kernels::HostExecutor& ex, const sc::ScatterCase& s,
                                const core::ScatterElementsPlan& plan,
                                const core::ScatterElementsBuffers& buffers) {
  return s.c.index_dtype == DataType::kInt32
             ? kernels::run_scatter_elements<Op, T, std::int32_t>(ex, plan, buffers)
             : kernels::run_scatter_elements<Op, T, std::int64_t>(ex, plan, buffers);
}

template <core::ScatterOp Op>
core::AxisIndexResult run_op(kernels::HostExecutor& ex, const sc::ScatterCase& s,
                             const core::ScatterElementsPlan& plan,
                             const core::ScatterElementsBuffers& buffers) {
  switch (s.c.dtype) {
    case DataType::kInt8: return run_typed<Op, std::int8_t>(ex, s, plan, buffers);
    case DataType::kInt16: return run_typed<Op, std::int16_t>(ex, s, plan, buffers);
    case DataType::kInt32: return run_typed<Op, std::int32_t>(ex, s, plan, buffers);
    case DataType::kInt64: return run_typed<Op, std::int64_t>(ex, s, plan, buffers);
    case DataType::kFloat32: return run_typed<Op, float>(ex, s, plan, buffers);
    case DataType::kFloat64: return run_typed<Op, double>(ex, s, plan, buffers);
    default: return run_typed<Op, std::uint8_t>(ex, s, plan, buffers);
  }
}

core::AxisIndexResult run(kernels::HostExecutor& ex, const sc::ScatterCase& s,
                          const core::ScatterElementsPlan& plan,
                          const core::ScatterElementsBuffers& buffers) {
  using core::ScatterOp;
  switch (s.reduction) {
    case Reduction::kNone: return run_op<ScatterOp::kUpdate>(ex, s, plan, buffers);
    case Reduction::kAdd: return run_op<ScatterOp::kAdd>(ex, s, plan, buffers);
    case Reduction::kMul: return run_op<ScatterOp::kMul>(ex, s, plan, buffers);
    case Reduction::kMin: return run_op<ScatterOp::kMin>(ex, s, plan, buffers);
    case Reduction::kMax: return run_op<ScatterOp::kMax>(ex, s, plan, buffers);
  }
  return {};
}

TEST(ScatterElementsDriver, BothPathsAndPoliciesOnTheHostExecutorMatchTheReference) {
  std::mt19937_64 rng(4719);
  int rejected = 0;
  for (int i = 0; i < el::random_cases(); ++i) {
    const sc::ScatterCase s = sc::random_scatter_case(rng, /*with_bad=*/true);
    std::string text;
    const std::int64_t bad = el::first_bad(s.c, &text);
    const TensorBuffer indices = el::indices_buffer(s.c);
    for (bool deterministic : {true, false}) {
      // The host executor runs positions last to first: the atomic path's order.
      const std::vector<std::uint8_t> expected =
          sc::reference(s.c, s.updates, s.reduction, /*reverse=*/!deterministic);
      for (OutOfBoundsPolicy policy : {OutOfBoundsPolicy::kDrop, OutOfBoundsPolicy::kError}) {
        const core::ScatterElementsPlan plan = plan_of(s, policy, deterministic);
        for (bool in_place : {false, true}) {
          std::vector<std::uint8_t> tensor = s.c.tensor;
          std::vector<std::uint8_t> out(s.c.tensor.size(), 0xee);
          kernels::HostExecutor ex;
          void* target = in_place ? tensor.data() : out.data();
          const core::AxisIndexResult result =
              run(ex, s, plan, {tensor.data(), indices.host_bytes(), s.updates.data(), target});
          const auto* written = static_cast<const std::uint8_t*>(target);
          const std::vector<std::uint8_t> got(written, written + s.c.tensor.size());
          if (policy == OutOfBoundsPolicy::kError && bad >= 0) {
            ASSERT_EQ(result.first_bad_index, bad) << "case " << i;
            ASSERT_EQ(result.bad_value, s.c.indices[static_cast<std::size_t>(bad)]);
            if (in_place) {
              ASSERT_EQ(got, s.c.tensor) << "case " << i << ": nothing written";
            }
          } else {
            ASSERT_TRUE(result.applied());
            ASSERT_EQ(got, expected) << "case " << i << " deterministic " << deterministic;
          }
          if (!in_place) {
            ASSERT_EQ(tensor, s.c.tensor) << "the input tensor is only read";
          }
        }
      }
    }
    rejected += bad >= 0;
  }
  EXPECT_GT(rejected, 0);
}

TEST(ScatterElementsDriver, DropFormIsCapturedOnceAndReplayedOnNewData) {
  std::mt19937_64 rng(107);
  for (int i = 0; i < el::random_cases() / 4 + 1; ++i) {
    sc::ScatterCase s = sc::random_scatter_case(rng, /*with_bad=*/true);
    for (bool deterministic : {true, false}) {
      const core::ScatterElementsPlan plan = plan_of(s, OutOfBoundsPolicy::kDrop, deterministic);
      std::vector<std::uint8_t> tensor = s.c.tensor;
      std::vector<std::uint8_t> updates = s.updates;
      const TensorBuffer indices = el::indices_buffer(s.c);
      std::vector<std::uint8_t> out(tensor.size(), 0x5a);
      kernels::HostExecutor ex;
      ex.begin_capture();
      run(ex, s, plan, {tensor.data(), indices.host_bytes(), updates.data(), out.data()});
      ex.end_capture();
      for (const std::uint8_t b : out) ASSERT_EQ(b, 0x5a) << "nothing runs while capturing";
      for (int replay = 0; replay < 2; ++replay) {
        const bool nan = s.reduction == Reduction::kMin || s.reduction == Reduction::kMax;
        // New contents in the captured buffers (the graph holds their addresses).
        const std::vector<std::uint8_t> fresh_tensor =
            sc::random_values(rng, s.c.dtype, tensor.size() / type_size(s.c.dtype), nan);
        const std::vector<std::uint8_t> fresh_updates =
            sc::random_values(rng, s.c.dtype, updates.size() / type_size(s.c.dtype), nan);
        std::copy(fresh_tensor.begin(), fresh_tensor.end(), tensor.begin());
        std::copy(fresh_updates.begin(), fresh_updates.end(), updates.begin());
        s.c.tensor = tensor;
        s.updates = updates;
        ex.replay();
        ASSERT_EQ(out, sc::reference(s.c, s.updates, s.reduction, !deterministic))
            << "case " << i << " replay " << replay;
      }
    }
  }
}

TEST(ScatterElementsDriver, KErrorReadsBackSoItIsBlocked) {
  sc::ScatterCase s;
  s.c.dtype = DataType::kInt32;
  s.c.tensor_shape = {2, 2};
  s.c.indices_shape = {2, 2};
  s.c.indices = {0, 1, 1, 0};
  s.c.tensor.assign(16, 0);
  s.updates.assign(16, 1);
  const core::ScatterElementsPlan plan = plan_of(s, OutOfBoundsPolicy::kError, false);
  const TensorBuffer indices = el::indices_buffer(s.c);
  std::vector<std::uint8_t> out(16);
  kernels::HostExecutor graph;
  graph.begin_capture();
  EXPECT_THROW(run(graph, s, plan, {s.c.tensor.data(), indices.host_bytes(), s.updates.data(), out.data()}),
               InternalError);
}

}  // namespace
}  // namespace tensorbuf
