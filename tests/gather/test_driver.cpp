// The CUDA backend's driver (src/kernels/gather.hpp) on the host executor, whose reverse order
// flushes out any assumption about the order threads run in: both policies against the
// reference on random cases, with unaligned pointers (narrower carriers), the kDrop form
// captured once and replayed on new data (no host read in it), and kError blocked in a capture.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "core/capture.hpp"
#include "core/plan_gather.hpp"
#include "gather/reference.hpp"
#include "kernels/gather.hpp"
#include "kernels/host_executor.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::gathering::Case;
using testing::gathering::indices_buffer;
using testing::gathering::random_case;
using testing::gathering::random_cases;
using testing::gathering::reference;
using testing::mask_update::from_bytes;

core::GatherPlan plan_of(const Case& c, OutOfBoundsPolicy policy) {
  const TensorBuffer params = from_bytes(c.dtype, Shape(c.params_shape), c.params);
  core::GatherPlan plan = core::plan_gather(params, indices_buffer(c),
                                            {Device::cpu(), policy, c.axis, c.batch_dims, {}});
  plan.policy = policy;
  return plan;
}

std::size_t out_bytes(const core::GatherPlan& plan) {
  std::int64_t n = 1;
  for (std::int64_t d : core::gather_output_dims(plan)) n *= d;
  return static_cast<std::size_t>(n) * plan.element_size;
}

core::AxisIndexResult run(kernels::HostExecutor& ex, const Case& c, const core::GatherPlan& plan,
                          const core::GatherBuffers& buffers) {
  return c.index_dtype == DataType::kInt32 ? kernels::run_gather<std::int32_t>(ex, plan, buffers)
                                           : kernels::run_gather<std::int64_t>(ex, plan, buffers);
}

struct DriverRun {
  std::vector<std::uint8_t> out;
  core::AxisIndexResult result;
};

// The driver with params and out `offset` bytes past an aligned address.
DriverRun run_driver(const Case& c, OutOfBoundsPolicy policy, std::size_t offset) {
  const core::GatherPlan plan = plan_of(c, policy);
  const TensorBuffer indices = indices_buffer(c);
  std::vector<std::uint8_t> params(c.params.size() + 16);
  if (!c.params.empty()) std::memcpy(params.data() + offset, c.params.data(), c.params.size());
  const std::size_t size = out_bytes(plan);
  std::vector<std::uint8_t> out(size + 16, 0xee);
  kernels::HostExecutor ex;
  DriverRun r;
  r.result = run(ex, c, plan, {params.data() + offset, indices.host_bytes(), out.data() + offset});
  const auto first = out.begin() + static_cast<std::ptrdiff_t>(offset);
  r.out.assign(first, first + static_cast<std::ptrdiff_t>(size));
  return r;
}

TEST(GatherDriver, BothPoliciesOnTheHostExecutorMatchTheReference) {
  std::mt19937_64 rng(4713);
  int rejected = 0;
  for (int i = 0; i < random_cases(); ++i) {
    const Case c = random_case(rng, /*with_bad=*/true);
    const auto expected = reference(c);
    for (std::size_t offset : {0, 1, 2, 4, 8}) {
      const DriverRun dropped = run_driver(c, OutOfBoundsPolicy::kDrop, offset);
      ASSERT_TRUE(dropped.result.applied());
      ASSERT_EQ(dropped.out, expected.bytes) << "case " << i << " at " << offset;
      const DriverRun checked = run_driver(c, OutOfBoundsPolicy::kError, offset);
      ASSERT_EQ(checked.result.first_bad_index, expected.first_bad) << "case " << i;
      if (expected.first_bad < 0) {
        ASSERT_EQ(checked.out, expected.bytes) << "case " << i << " at " << offset;
      } else {
        ASSERT_EQ(checked.result.bad_value, c.indices[static_cast<std::size_t>(expected.first_bad)]);
      }
    }
    rejected += expected.first_bad >= 0;
  }
  EXPECT_GT(rejected, 0);
}

TEST(GatherDriver, DropFormIsCapturedOnceAndReplayedOnNewData) {
  std::mt19937_64 rng(101);
  for (int i = 0; i < random_cases() / 4 + 1; ++i) {
    Case c = random_case(rng, /*with_bad=*/true);
    const core::GatherPlan plan = plan_of(c, OutOfBoundsPolicy::kDrop);
    std::vector<std::uint8_t> params = c.params;
    const TensorBuffer indices = indices_buffer(c);
    std::vector<std::uint8_t> out(out_bytes(plan), 0x5a);
    kernels::HostExecutor ex;
    ex.begin_capture();
    run(ex, c, plan, {params.data(), indices.host_bytes(), out.data()});
    ex.end_capture();
    for (const std::uint8_t b : out) ASSERT_EQ(b, 0x5a) << "nothing runs while capturing";
    for (int replay = 0; replay < 2; ++replay) {
      for (auto& b : params) b = static_cast<std::uint8_t>(rng());
      c.params = params;
      ex.replay();
      ASSERT_EQ(out, reference(c).bytes) << "case " << i << " replay " << replay;
    }
  }
}

TEST(GatherDriver, KErrorReadsBackSoItIsBlocked) {
  EXPECT_EQ(core::axis_index_capture_blocker(OutOfBoundsPolicy::kDrop), nullptr);
  EXPECT_NE(core::axis_index_capture_blocker(OutOfBoundsPolicy::kError), nullptr);
  std::mt19937_64 rng(5);
  Case c = random_case(rng, /*with_bad=*/false);
  while (c.indices.empty()) c = random_case(rng, false);
  const core::GatherPlan plan = plan_of(c, OutOfBoundsPolicy::kError);
  const TensorBuffer indices = indices_buffer(c);
  std::vector<std::uint8_t> out(out_bytes(plan) + 1);
  kernels::HostExecutor graph;
  graph.begin_capture();
  EXPECT_THROW(run(graph, c, plan, {c.params.data(), indices.host_bytes(), out.data()}),
               InternalError);
}

}  // namespace
}  // namespace tensorbuf
