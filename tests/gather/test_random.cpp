// gather against the independent reference (reference.hpp) on random cases, on every device
// and under both policies: kDrop equals the reference with zeros for bad indices, kError equals
// it when every index is good and names the first bad one otherwise. Fixed seeds;
// TENSORBUF_RANDOM_CASES cases (default 300).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "boolean_mask_update/helpers.hpp"
#include "gather/reference.hpp"
#include "support/devices.hpp"
#include "support/error_text.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::invalid_argument_text;
using testing::gathering::Case;
using testing::gathering::indices_buffer;
using testing::gathering::random_case;
using testing::gathering::random_cases;
using testing::gathering::reference;
using testing::mask_update::bytes;
using testing::mask_update::from_bytes;

class GatherRandom : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(GetParam()); }
};

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(GatherRandom);

TEST_P(GatherRandom, BothPoliciesMatchTheReference) {
  std::mt19937_64 rng(3607);
  int rejected = 0;
  int accepted = 0;
  for (int i = 0; i < random_cases(); ++i) {
    const Case c = random_case(rng, /*with_bad=*/true);
    const auto expected = reference(c);
    const TensorBuffer params = from_bytes(c.dtype, Shape(c.params_shape), c.params);
    const TensorBuffer indices = indices_buffer(c);
    const TensorBuffer dropped = gather(
        params, indices, {GetParam(), OutOfBoundsPolicy::kDrop, c.axis, c.batch_dims, {}});
    ASSERT_EQ(dropped.shape(), Shape(expected.shape)) << "case " << i;
    ASSERT_EQ(bytes(dropped), expected.bytes) << "case " << i;
    const GatherOptions error{GetParam(), OutOfBoundsPolicy::kError, c.axis, c.batch_dims, {}};
    if (expected.first_bad >= 0) {
      ++rejected;
      ASSERT_EQ(invalid_argument_text([&] { gather(params, indices, error); }),
                expected.first_bad_text)
          << "case " << i;
    } else {
      ++accepted;
      ASSERT_EQ(bytes(gather(params, indices, error)), expected.bytes) << "case " << i;
    }
    ASSERT_EQ(bytes(params), c.params);
  }
  // The cases reach both outcomes (a test that cannot fail is a defect).
  EXPECT_GT(rejected, random_cases() / 20);
  EXPECT_GT(accepted, random_cases() / 4);
}

}  // namespace
}  // namespace tensorbuf
