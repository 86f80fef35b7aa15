// The CUDA backend's driver (src/kernels/gather_nd.hpp) on the host executor, whose reverse
// order flushes out any assumption about the order threads run in: both policies against the
// reference on random cases, with unaligned pointers (narrower carriers), and the kDrop form
// captured once and replayed on new data, as a CUDA graph would (no host read in it).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "core/capture.hpp"
#include "core/plan_gather_nd.hpp"
#include "gather_nd/random_case.hpp"
#include "gather_nd/reference.hpp"
#include "kernels/gather_nd.hpp"
#include "kernels/host_executor.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::gathered::indices_buffer;
using testing::gathered::random_case;
using testing::gathered::random_cases;
using testing::gathered::RandomCase;
using testing::gathered::reference;
using testing::mask_update::from_bytes;

core::GatherNdPlan plan_of(const RandomCase& c, OutOfBoundsPolicy policy) {
  const TensorBuffer params = from_bytes(c.dtype, Shape(c.params_shape), c.params);
  core::GatherNdPlan plan =
      core::plan_gather_nd(params, indices_buffer(c), {Device::cpu(), policy, 0, c.batch_dims, {}});
  plan.policy = policy;
  return plan;
}

struct DriverRun {
  std::vector<std::uint8_t> out;
  core::GatherNdResult result;
};

// The driver with params and out `offset` bytes past an aligned address.
DriverRun run_driver(const RandomCase& c, OutOfBoundsPolicy policy, std::size_t offset) {
  const core::GatherNdPlan plan = plan_of(c, policy);
  const TensorBuffer indices = indices_buffer(c);
  std::vector<std::uint8_t> params(c.params.size() + 16);
  if (!c.params.empty()) std::memcpy(params.data() + offset, c.params.data(), c.params.size());
  const std::size_t out_bytes =
      static_cast<std::size_t>(plan.num_rows * plan.slice_size) * plan.element_size;
  std::vector<std::uint8_t> out(out_bytes + 16, 0xee);
  kernels::HostExecutor ex;
  const core::GatherNdBuffers buffers{params.data() + offset, indices.host_bytes(),
                                      out.data() + offset};
  DriverRun run;
  run.result = c.index_dtype == DataType::kInt32
                   ? kernels::run_gather_nd<std::int32_t>(ex, plan, buffers)
                   : kernels::run_gather_nd<std::int64_t>(ex, plan, buffers);
  const auto first = out.begin() + static_cast<std::ptrdiff_t>(offset);
  run.out.assign(first, first + static_cast<std::ptrdiff_t>(out_bytes));
  return run;
}

TEST(GatherNdDriver, BothPoliciesOnTheHostExecutorMatchTheReference) {
  std::mt19937_64 rng(4711);
  for (int i = 0; i < random_cases(); ++i) {
    const RandomCase c = random_case(rng, /*with_bad_rows=*/true);
    const auto expected = reference(c.params, c.params_shape, c.indices, c.indices_shape,
                                    type_size(c.dtype), c.batch_dims);
    for (std::size_t offset : {0, 1, 2, 4, 8}) {
      const DriverRun dropped = run_driver(c, OutOfBoundsPolicy::kDrop, offset);
      ASSERT_TRUE(dropped.result.applied());
      ASSERT_EQ(dropped.out, expected.bytes) << "case " << i << " at " << offset;
      const DriverRun checked = run_driver(c, OutOfBoundsPolicy::kError, offset);
      ASSERT_EQ(checked.result.first_bad_index, expected.first_bad) << "case " << i;
      if (expected.first_bad < 0) {
        ASSERT_EQ(checked.out, expected.bytes) << "case " << i << " at " << offset;
      } else {
        const auto depth = static_cast<std::size_t>(c.indices_shape.back());
        const auto row = static_cast<std::size_t>(expected.first_bad);
        ASSERT_EQ(checked.result.bad_components,
                  std::vector<std::int64_t>(
                      c.indices.begin() + static_cast<std::ptrdiff_t>(row * depth),
                      c.indices.begin() + static_cast<std::ptrdiff_t>((row + 1) * depth)));
      }
    }
  }
}

TEST(GatherNdDriver, DropFormIsCapturedOnceAndReplayedOnNewData) {
  std::mt19937_64 rng(99);
  for (int i = 0; i < random_cases() / 4 + 1; ++i) {
    RandomCase c = random_case(rng, /*with_bad_rows=*/true);
    const core::GatherNdPlan plan = plan_of(c, OutOfBoundsPolicy::kDrop);
    std::vector<std::uint8_t> params = c.params;
    TensorBuffer indices = indices_buffer(c);
    std::vector<std::uint8_t> out(
        static_cast<std::size_t>(plan.num_rows * plan.slice_size) * plan.element_size, 0x5a);
    kernels::HostExecutor ex;
    ex.begin_capture();
    const core::GatherNdBuffers buffers{params.data(), indices.host_bytes(), out.data()};
    if (c.index_dtype == DataType::kInt32) {
      kernels::run_gather_nd<std::int32_t>(ex, plan, buffers);
    } else {
      kernels::run_gather_nd<std::int64_t>(ex, plan, buffers);
    }
    ex.end_capture();
    for (const std::uint8_t b : out) ASSERT_EQ(b, 0x5a) << "nothing runs while capturing";
    for (int replay = 0; replay < 2; ++replay) {
      for (auto& b : params) b = static_cast<std::uint8_t>(rng());
      c.params = params;
      const auto expected = reference(c.params, c.params_shape, c.indices, c.indices_shape,
                                      type_size(c.dtype), c.batch_dims);
      ex.replay();
      ASSERT_EQ(out, expected.bytes) << "case " << i << " replay " << replay;
    }
  }
}

TEST(GatherNdDriver, KErrorReadsBackSoItIsBlocked) {
  std::mt19937_64 rng(5);
  RandomCase c = random_case(rng, /*with_bad_rows=*/false);
  while (c.indices.empty()) c = random_case(rng, false);
  EXPECT_EQ(core::gather_nd_capture_blocker(plan_of(c, OutOfBoundsPolicy::kDrop)), nullptr);
  const core::GatherNdPlan plan = plan_of(c, OutOfBoundsPolicy::kError);
  EXPECT_NE(core::gather_nd_capture_blocker(plan), nullptr);
  const TensorBuffer indices = indices_buffer(c);
  std::vector<std::uint8_t> out(
      static_cast<std::size_t>(plan.num_rows * plan.slice_size) * plan.element_size + 1);
  kernels::HostExecutor graph;
  graph.begin_capture();
  const core::GatherNdBuffers buffers{c.params.data(), indices.host_bytes(), out.data()};
  EXPECT_THROW(c.index_dtype == DataType::kInt32
                   ? kernels::run_gather_nd<std::int32_t>(graph, plan, buffers)
                   : kernels::run_gather_nd<std::int64_t>(graph, plan, buffers),
               InternalError);
}

}  // namespace
}  // namespace tensorbuf
