// gather_nd against the independent reference (reference.hpp) on random cases
// (random_case.hpp), on every device and under both policies: kDrop equals the reference with
// zeros for bad rows, kError equals it when every row is good and names its first bad row
// otherwise. Fixed seeds; TENSORBUF_RANDOM_CASES cases (default 300).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "gather_nd/random_case.hpp"
#include "gather_nd/reference.hpp"
#include "support/devices.hpp"
#include "support/error_text.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::invalid_argument_text;
using testing::gathered::indices_buffer;
using testing::gathered::random_case;
using testing::gathered::random_cases;
using testing::gathered::RandomCase;
using testing::gathered::reference;
using testing::mask_update::bytes;
using testing::mask_update::from_bytes;

class GatherNdRandom : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(GetParam()); }
};

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(GatherNdRandom);

TEST_P(GatherNdRandom, BothPoliciesMatchTheReference) {
  std::mt19937_64 rng(3605);
  int rejected = 0;
  for (int i = 0; i < random_cases(); ++i) {
    const RandomCase c = random_case(rng, /*with_bad_rows=*/true);
    const auto expected = reference(c.params, c.params_shape, c.indices, c.indices_shape,
                                    type_size(c.dtype), c.batch_dims);
    const TensorBuffer params = from_bytes(c.dtype, Shape(c.params_shape), c.params);
    const TensorBuffer indices = indices_buffer(c);
    const TensorBuffer dropped =
        gather_nd(params, indices, {GetParam(), OutOfBoundsPolicy::kDrop, 0, c.batch_dims, {}});
    ASSERT_EQ(dropped.shape(), Shape(expected.shape)) << "case " << i;
    ASSERT_EQ(bytes(dropped), expected.bytes) << "case " << i;
    const GatherOptions error{GetParam(), OutOfBoundsPolicy::kError, 0, c.batch_dims, {}};
    if (expected.first_bad >= 0) {
      ++rejected;
      ASSERT_EQ(invalid_argument_text([&] { gather_nd(params, indices, error); }),
                expected.first_bad_text)
          << "case " << i;
    } else {
      ASSERT_EQ(bytes(gather_nd(params, indices, error)), expected.bytes) << "case " << i;
    }
    ASSERT_EQ(bytes(params), c.params);
  }
  if (random_cases() >= 50) {
    EXPECT_GT(rejected, 5);
  }
}

// params of 8 MiB and more: the CPU backend prefetches rows ahead there (batched, bad rows too).
TEST_P(GatherNdRandom, LargeParamsMatchTheReference) {
  std::mt19937_64 rng(8);
  RandomCase c;
  c.dtype = DataType::kFloat32;
  c.index_dtype = DataType::kInt64;
  c.params_shape = {2, std::int64_t{1} << 17, 8};
  c.indices_shape = {2, 3000, 1};
  c.batch_dims = 1;
  c.params.resize(std::size_t{2} << 22);
  for (auto& byte : c.params) byte = static_cast<std::uint8_t>(rng());
  for (int r = 0; r < 6000; ++r) {
    const std::int64_t v = static_cast<std::int64_t>(rng() % (std::uint64_t{1} << 17));
    c.indices.push_back(r % 997 == 500 ? -v - 1 : v);
  }
  const auto expected = reference(c.params, c.params_shape, c.indices, c.indices_shape,
                                  type_size(c.dtype), c.batch_dims);
  const TensorBuffer params = from_bytes(c.dtype, Shape(c.params_shape), c.params);
  const TensorBuffer indices = indices_buffer(c);
  EXPECT_EQ(bytes(gather_nd(params, indices,
                            {GetParam(), OutOfBoundsPolicy::kDrop, 0, c.batch_dims, {}})),
            expected.bytes);
  EXPECT_EQ(
      invalid_argument_text([&] {
        gather_nd(params, indices, {GetParam(), OutOfBoundsPolicy::kError, 0, c.batch_dims, {}});
      }),
      expected.first_bad_text);
  EXPECT_EQ(expected.first_bad_text.rfind("indices[0,500] = [-", 0), 0u);
}

}  // namespace
}  // namespace tensorbuf
