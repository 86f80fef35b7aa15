// The CPU backend's direct path (src/cpu/scatter_elements_lanes.hpp: lanes across the axis,
// targets prefetched ahead; under kError the indices checked into narrow wrapped ones,
// cpu/axis_index_wrap.hpp) against the independent reference: forced with and without its
// prefetches and narrow indices on the random cases (every reduction and dtype, negative indices
// and axes, both policies, in and out of place); float sums whose value depends on the order
// (duplicates apply in row-major order, bit for bit); axes of 2^16 and 2^16 + 1 elements (the
// uint16 and uint32 narrow indices at their limits); kError's first bad index over several
// check chunks with nothing written; and the op's size thresholds on both sides.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "core/plan_elements.hpp"
#include "cpu/cache_size.hpp"
#include "cpu/scatter_elements_buckets.hpp"
#include "cpu/scatter_elements_tuning.hpp"
#include "scatter_elements/reference.hpp"
#include "support/error_text.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::mask_update::bytes;
using testing::mask_update::from_bytes;
namespace el = testing::elements;
namespace sc = testing::scattering;
using testing::invalid_argument_text;

// The direct path with each of its switches: {bucketed, prefetch, wrapped}.
const cpu::ScatterElementsTuning kDirectForms[] = {{0, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 1, 1}};

std::string form_name(const cpu::ScatterElementsTuning& t) {
  return std::string(t.prefetch == 1 ? "prefetched" : "plain") +
         (t.wrapped == 1 ? ", narrow indices" : ", raw indices");
}

core::ScatterElementsPlan plan_for(const el::Case& c, const TensorBuffer& indices,
                                   Reduction reduction, OutOfBoundsPolicy policy) {
  const TensorBuffer tensor = TensorBuffer::create_uninitialized(Shape(c.tensor_shape), c.dtype);
  const TensorBuffer updates = TensorBuffer::create_uninitialized(Shape(c.indices_shape), c.dtype);
  core::ScatterElementsPlan plan = core::plan_scatter_elements(
      tensor, indices, updates, {Device::cpu(), policy, false, c.axis, reduction, {}});
  plan.policy = policy;
  return plan;
}

// Runs every direct form on the case, in and out of place, and checks the result (kDrop, or
// kError without a bad index) or the first bad index with nothing written (kError).
void expect_direct_forms(const el::Case& c, const std::vector<std::uint8_t>& updates,
                         Reduction reduction, OutOfBoundsPolicy policy, const std::string& what) {
  const TensorBuffer indices = el::indices_buffer(c);
  const core::ScatterElementsPlan plan = plan_for(c, indices, reduction, policy);
  std::string text;
  const std::int64_t bad = el::first_bad(c, &text);
  const bool rejects = policy == OutOfBoundsPolicy::kError && bad >= 0;
  const std::vector<std::uint8_t> expected =
      rejects ? c.tensor : sc::reference(c, updates, reduction);
  for (const cpu::ScatterElementsTuning& form : kDirectForms) {
    for (const bool in_place : {false, true}) {
      std::vector<std::uint8_t> input = c.tensor;
      std::vector<std::uint8_t> out(c.tensor.size(), 0xee);
      void* target = in_place ? input.data() : out.data();
      const core::AxisIndexResult result = cpu::scatter_elements_tuned(
          plan, {input.data(), indices.host_bytes(), updates.data(), target}, form);
      const std::string where = what + ", " + form_name(form) + (in_place ? ", in place" : "");
      if (rejects) {
        ASSERT_EQ(result.first_bad_index, bad) << where;
        ASSERT_EQ(result.bad_value, c.indices[static_cast<std::size_t>(bad)]) << where;
        ASSERT_EQ(input, c.tensor) << where << ": nothing written";
        if (!in_place) {
          ASSERT_EQ(out, std::vector<std::uint8_t>(c.tensor.size(), 0xee)) << where;
        }
        continue;
      }
      ASSERT_TRUE(result.applied()) << where;
      const auto* written = static_cast<const std::uint8_t*>(target);
      ASSERT_EQ(std::vector<std::uint8_t>(written, written + c.tensor.size()), expected) << where;
      if (!in_place) {
        ASSERT_EQ(input, c.tensor) << where << ": the input tensor is only read";
      }
    }
  }
}

TEST(ScatterElementsDirect, EveryFormMatchesTheReferenceUnderBothPolicies) {
  std::mt19937_64 rng(9411);
  int rejected = 0;
  for (int i = 0; i < el::random_cases(); ++i) {
    const sc::ScatterCase s = sc::random_scatter_case(rng, /*with_bad=*/true);
    std::string text;
    rejected += el::first_bad(s.c, &text) >= 0;
    for (const OutOfBoundsPolicy policy : {OutOfBoundsPolicy::kError, OutOfBoundsPolicy::kDrop}) {
      expect_direct_forms(s.c, s.updates, s.reduction, policy, "case " + std::to_string(i));
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(rejected, 0) << "some cases hold a bad index";
}

// Floats of mixed magnitudes: their sum depends on the order they are added in.
std::vector<std::uint8_t> order_sensitive_floats(std::mt19937_64& rng, std::size_t count) {
  std::vector<std::uint8_t> out(count * 4);
  std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
  for (std::size_t i = 0; i < count; ++i) {
    const float v = mantissa(rng) * std::ldexp(1.0f, static_cast<int>(rng() % 40) - 20);
    std::memcpy(out.data() + i * 4, &v, 4);
  }
  return out;
}

// [512, 64] f32 and [4096, 64] int64 indices along axis 0 (8 updates per target on average,
// negative indices half the time): 64 lanes, enough work for a chunk per thread, and a walk of
// 4096 steps, far past the prefetch distance.
el::Case lanes_case(std::mt19937_64& rng, DataType index_dtype) {
  el::Case c;
  c.tensor_shape = {512, 64};
  c.indices_shape = {4096, 64};
  c.index_dtype = index_dtype;
  c.tensor = order_sensitive_floats(rng, 512 * 64);
  for (std::int64_t p = 0; p < 4096 * 64; ++p) {
    c.indices.push_back(static_cast<std::int64_t>(rng() % 1024) - 512);
  }
  return c;
}

TEST(ScatterElementsDirect, FloatSumsFollowRowMajorOrderExactly) {
  std::mt19937_64 rng(9412);
  for (const DataType index_dtype : {DataType::kInt32, DataType::kInt64}) {
    const el::Case c = lanes_case(rng, index_dtype);
    const std::vector<std::uint8_t> updates = order_sensitive_floats(rng, c.indices.size());
    // The reference in reverse order differs, so the comparison below sees the order.
    ASSERT_NE(sc::reference(c, updates, Reduction::kAdd),
              sc::reference(c, updates, Reduction::kAdd, /*reverse=*/true));
    for (const Reduction reduction :
         {Reduction::kNone, Reduction::kAdd, Reduction::kMul, Reduction::kMin, Reduction::kMax}) {
      expect_direct_forms(c, updates, reduction, OutOfBoundsPolicy::kError,
                          "reduction " + std::to_string(static_cast<int>(reduction)));
      if (HasFatalFailure()) return;
    }
  }
}

TEST(ScatterElementsDirect, OtherAxesAndLayoutsMatchTheReference) {
  // Axis 1 and 2 of a [40, 30, 20] f32 tensor, with indices smaller off the axis (unmerged
  // dims) and long along it.
  std::mt19937_64 rng(9413);
  for (const int axis : {1, 2, -1}) {
    el::Case c;
    c.tensor_shape = {40, 30, 20};
    c.indices_shape = {35, 30, 20};
    c.indices_shape[static_cast<std::size_t>(axis < 0 ? axis + 3 : axis)] = 700;
    c.axis = axis;
    c.index_dtype = DataType::kInt64;
    c.tensor = order_sensitive_floats(rng, 40 * 30 * 20);
    const std::int64_t s = c.tensor_shape[static_cast<std::size_t>(axis < 0 ? axis + 3 : axis)];
    const std::int64_t n = el::product(c.indices_shape);
    for (std::int64_t p = 0; p < n; ++p) {
      c.indices.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(2 * s)) - s);
    }
    const std::vector<std::uint8_t> updates = order_sensitive_floats(rng, c.indices.size());
    expect_direct_forms(c, updates, Reduction::kAdd, OutOfBoundsPolicy::kError,
                        "axis " + std::to_string(axis));
    if (HasFatalFailure()) return;
  }
}

TEST(ScatterElementsDirect, NarrowIndicesAtTheirLimits) {
  // An axis of 2^16 elements takes uint16 indices, one of 2^16 + 1 uint32 ones (int64 indices):
  // the extreme indices at each end, wrapped and not, and the first bad one past them.
  std::mt19937_64 rng(9414);
  for (const std::int64_t s : {std::int64_t{65536}, std::int64_t{65537}}) {
    for (const DataType index_dtype : {DataType::kInt32, DataType::kInt64}) {
      el::Case c;
      c.tensor_shape = {s, 2};
      c.indices_shape = {3000, 2};
      c.index_dtype = index_dtype;
      c.tensor = order_sensitive_floats(rng, static_cast<std::size_t>(s) * 2);
      for (int p = 0; p < 6000; ++p) {
        const std::int64_t edges[] = {0, s - 1, -1, -s, s / 2, -(s / 2)};
        c.indices.push_back(
            p % 3 == 0 ? edges[rng() % 6]
                       : static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(2 * s)) - s);
      }
      const std::vector<std::uint8_t> updates = order_sensitive_floats(rng, c.indices.size());
      const std::string what = "axis of " + std::to_string(s);
      expect_direct_forms(c, updates, Reduction::kAdd, OutOfBoundsPolicy::kError, what);
      if (HasFatalFailure()) return;
      for (const std::int64_t bad : {s, -s - 1}) {
        el::Case b = c;
        b.indices[4001] = bad;
        b.indices[5999] = s + 7;
        expect_direct_forms(b, updates, Reduction::kAdd, OutOfBoundsPolicy::kError,
                            what + ", bad " + std::to_string(bad));
        expect_direct_forms(b, updates, Reduction::kAdd, OutOfBoundsPolicy::kDrop,
                            what + ", dropped " + std::to_string(bad));
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST(ScatterElementsDirect, KErrorNamesTheFirstBadIndexOverSeveralCheckChunks) {
  // 262144 positions: the check runs in a chunk per thread; bad indices late in the last chunk
  // and early in a later half, then one in the first chunk too.
  std::mt19937_64 rng(9415);
  el::Case c = lanes_case(rng, DataType::kInt64);
  const std::vector<std::uint8_t> updates = order_sensitive_floats(rng, c.indices.size());
  const std::int64_t n = static_cast<std::int64_t>(c.indices.size());
  c.indices[static_cast<std::size_t>(n - 3)] = 512;
  expect_direct_forms(c, updates, Reduction::kAdd, OutOfBoundsPolicy::kError, "last chunk");
  c.indices[static_cast<std::size_t>(n / 2 + 5)] = -513;
  expect_direct_forms(c, updates, Reduction::kAdd, OutOfBoundsPolicy::kError, "middle");
  c.indices[17] = 1 << 20;
  expect_direct_forms(c, updates, Reduction::kAdd, OutOfBoundsPolicy::kError, "first chunk");
}

// The op itself on [rows, 256] f32 (rows * 1 KiB) with [2 * rows, 256] indices along axis 0:
// the result, and under kError the text of the first bad index with the tensor left as it was.
void expect_op(std::int64_t rows, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  el::Case c;
  c.tensor_shape = {rows, 256};
  c.indices_shape = {2 * rows, 256};
  c.index_dtype = DataType::kInt64;
  c.tensor = order_sensitive_floats(rng, static_cast<std::size_t>(rows) * 256);
  for (std::int64_t p = 0; p < 2 * rows * 256; ++p) {
    c.indices.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(2 * rows)) -
                        rows);
  }
  const std::vector<std::uint8_t> updates = order_sensitive_floats(rng, c.indices.size());
  const TensorBuffer tensor = from_bytes(c.dtype, Shape(c.tensor_shape), c.tensor);
  const TensorBuffer update_buffer = from_bytes(c.dtype, Shape(c.indices_shape), updates);
  ScatterElementsOptions options;
  options.device = Device::cpu();
  options.reduction = Reduction::kAdd;
  options.out_of_bounds = OutOfBoundsPolicy::kError;
  {
    const TensorBuffer indices = el::indices_buffer(c);
    ASSERT_EQ(bytes(scatter_elements(tensor, indices, update_buffer, options)),
              sc::reference(c, updates, Reduction::kAdd))
        << rows << " rows";
  }
  c.indices[static_cast<std::size_t>(rows * 256 + 3)] = rows;
  c.indices[static_cast<std::size_t>(rows * 300)] = -rows - 1;
  std::string text;
  ASSERT_EQ(el::first_bad(c, &text), rows * 256 + 3);
  const TensorBuffer indices = el::indices_buffer(c);
  TensorBuffer target = from_bytes(c.dtype, Shape(c.tensor_shape), c.tensor);
  EXPECT_EQ(invalid_argument_text(
                [&] { scatter_elements_in_place(target, indices, update_buffer, options); }),
            text)
      << rows << " rows";
  EXPECT_EQ(bytes(target), c.tensor) << rows << " rows";
}

TEST(ScatterElementsDirect, TheOpOnBothSidesOfThePrefetchSize) {
  expect_op(1024, 9416);  // 1 MiB: within the L2, plain
  expect_op(1040, 9417);  // just past 1 MiB: prefetched, narrow indices
}

TEST(ScatterElementsDirect, TheBucketingStaysBeyondTheLastLevelCache) {
  const auto applies = [](const Shape& shape, const Shape& indices_shape) {
    const TensorBuffer tensor = TensorBuffer::create_uninitialized(shape, DataType::kFloat32);
    const TensorBuffer indices =
        TensorBuffer::create_uninitialized(indices_shape, DataType::kInt64);
    const TensorBuffer updates =
        TensorBuffer::create_uninitialized(indices_shape, DataType::kFloat32);
    const core::ScatterElementsPlan plan = core::plan_scatter_elements(
        tensor, indices, updates,
        {Device::cpu(), OutOfBoundsPolicy::kError, false, 0, Reduction::kAdd, {}});
    return cpu::scatter_elements_buckets::applies(plan, 4);
  };
  const std::int64_t cache =
      std::max(cpu::last_level_cache_bytes(), cpu::scatter_elements_buckets::kMinTensorBytes);
  // [rows, 64] f32 tables just within and just beyond the cache, 4 positions per element.
  const std::int64_t within = cache / 256;
  EXPECT_FALSE(applies(Shape{within, 64}, Shape{4 * within, 64}));
  EXPECT_TRUE(applies(Shape{within + 1, 64}, Shape{4 * within + 4, 64}));
  // One lane (1-D, 4 MiB): direct within the cache too.
  EXPECT_EQ(applies(Shape{1 << 20}, Shape{1 << 22}), (std::int64_t{4} << 20) > cache);
  // Too small for bucketing whatever the lanes.
  EXPECT_FALSE(applies(Shape{1 << 18}, Shape{1 << 22}));
}

}  // namespace
}  // namespace tensorbuf
