// The CUDA backend's driver (src/kernels/gather_elements.hpp) on the host executor (reverse
// order): both policies against the reference on random cases (deep layouts through executor
// memory included), the kDrop form captured once and replayed on new data, kError blocked in a
// capture.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "core/plan_elements.hpp"
#include "gather_elements/reference.hpp"
#include "kernels/gather_elements.hpp"
#include "kernels/host_executor.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::mask_update::from_bytes;
namespace el = testing::elements;

const std::vector<DataType> kTypes = {DataType::kUInt8, DataType::kInt16, DataType::kInt32,
                                      DataType::kFloat64};

core::GatherElementsPlan plan_of(const el::Case& c, OutOfBoundsPolicy policy) {
  const TensorBuffer params = from_bytes(c.dtype, Shape(c.tensor_shape), c.tensor);
  core::GatherElementsPlan plan =
      core::plan_gather_elements(params, el::indices_buffer(c), {Device::cpu(), policy, c.axis, 0, {}});
  plan.policy = policy;
  return plan;
}

core::AxisIndexResult run(kernels::HostExecutor& ex, const el::Case& c,
                          const core::GatherElementsPlan& plan,
                          const core::GatherElementsBuffers& buffers) {
  return c.index_dtype == DataType::kInt32
             ? kernels::run_gather_elements<std::int32_t>(ex, plan, buffers)
             : kernels::run_gather_elements<std::int64_t>(ex, plan, buffers);
}

TEST(GatherElementsDriver, BothPoliciesOnTheHostExecutorMatchTheReference) {
  std::mt19937_64 rng(4717);
  int rejected = 0;
  int deep = 0;
  for (int i = 0; i < el::random_cases(); ++i) {
    const el::Case c = el::random_case(rng, /*with_bad=*/true, kTypes);
    const std::vector<std::uint8_t> expected = el::gather_reference(c);
    std::string text;
    const std::int64_t bad = el::first_bad(c, &text);
    const TensorBuffer indices = el::indices_buffer(c);
    for (OutOfBoundsPolicy policy : {OutOfBoundsPolicy::kDrop, OutOfBoundsPolicy::kError}) {
      const core::GatherElementsPlan plan = plan_of(c, policy);
      deep += plan.layout.dims.rank() > kernels::kInlineElementsRank;
      std::vector<std::uint8_t> out(expected.size(), 0xee);
      kernels::HostExecutor ex;
      const core::AxisIndexResult result =
          run(ex, c, plan, {c.tensor.data(), indices.host_bytes(), out.data()});
      if (policy == OutOfBoundsPolicy::kError && bad >= 0) {
        ASSERT_EQ(result.first_bad_index, bad) << "case " << i;
        ASSERT_EQ(result.bad_value, c.indices[static_cast<std::size_t>(bad)]);
      } else {
        ASSERT_TRUE(result.applied());
        ASSERT_EQ(out, expected) << "case " << i;
      }
    }
    rejected += bad >= 0;
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(deep, 0);  // the deep layout's table in executor memory is reached
}

TEST(GatherElementsDriver, DropFormIsCapturedOnceAndReplayedOnNewData) {
  std::mt19937_64 rng(103);
  for (int i = 0; i < el::random_cases() / 4 + 1; ++i) {
    el::Case c = el::random_case(rng, /*with_bad=*/true, kTypes);
    const core::GatherElementsPlan plan = plan_of(c, OutOfBoundsPolicy::kDrop);
    std::vector<std::uint8_t> params = c.tensor;
    const TensorBuffer indices = el::indices_buffer(c);
    std::vector<std::uint8_t> out(c.indices.size() * type_size(c.dtype), 0x5a);
    kernels::HostExecutor ex;
    ex.begin_capture();
    run(ex, c, plan, {params.data(), indices.host_bytes(), out.data()});
    ex.end_capture();
    for (const std::uint8_t b : out) ASSERT_EQ(b, 0x5a) << "nothing runs while capturing";
    for (int replay = 0; replay < 2; ++replay) {
      for (auto& b : params) b = static_cast<std::uint8_t>(rng());
      c.tensor = params;
      ex.replay();
      ASSERT_EQ(out, el::gather_reference(c)) << "case " << i << " replay " << replay;
    }
  }
}

TEST(GatherElementsDriver, KErrorReadsBackSoItIsBlocked) {
  const TensorBuffer params = from_bytes(DataType::kInt32, Shape{2, 2}, std::vector<std::uint8_t>(16));
  el::Case c;
  c.dtype = DataType::kInt32;
  c.tensor_shape = {2, 2};
  c.indices_shape = {2, 2};
  c.indices = {0, 1, 1, 0};
  c.tensor.assign(16, 0);
  const core::GatherElementsPlan plan = plan_of(c, OutOfBoundsPolicy::kError);
  const TensorBuffer indices = el::indices_buffer(c);
  std::vector<std::uint8_t> out(16);
  kernels::HostExecutor graph;
  graph.begin_capture();
  EXPECT_THROW(run(graph, c, plan, {c.tensor.data(), indices.host_bytes(), out.data()}),
               InternalError);
}

}  // namespace
}  // namespace tensorbuf
