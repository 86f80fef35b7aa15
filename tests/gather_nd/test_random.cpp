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

}  // namespace
}  // namespace tensorbuf
