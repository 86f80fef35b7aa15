// gather_elements against the independent reference (reference.hpp) on random cases, on every
// device and under both policies. Fixed seeds; TENSORBUF_RANDOM_CASES cases (default 300).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "boolean_mask_update/helpers.hpp"
#include "gather_elements/reference.hpp"
#include "support/devices.hpp"
#include "support/error_text.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::invalid_argument_text;
using testing::mask_update::bytes;
using testing::mask_update::from_bytes;
namespace el = testing::elements;

const std::vector<DataType> kTypes = {DataType::kBool,    DataType::kInt8,  DataType::kInt16,
                                      DataType::kFloat32, DataType::kFloat64, DataType::kFloat16};

class GatherElementsRandom : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(GetParam()); }
};

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(GatherElementsRandom);

TEST_P(GatherElementsRandom, BothPoliciesMatchTheReference) {
  std::mt19937_64 rng(3611);
  int rejected = 0;
  int accepted = 0;
  for (int i = 0; i < el::random_cases(); ++i) {
    const el::Case c = el::random_case(rng, /*with_bad=*/true, kTypes);
    const std::vector<std::uint8_t> expected = el::gather_reference(c);
    std::string text;
    const std::int64_t bad = el::first_bad(c, &text);
    const TensorBuffer params = from_bytes(c.dtype, Shape(c.tensor_shape), c.tensor);
    const TensorBuffer indices = el::indices_buffer(c);
    const TensorBuffer dropped =
        gather_elements(params, indices, {GetParam(), OutOfBoundsPolicy::kDrop, c.axis, 0, {}});
    ASSERT_EQ(dropped.shape(), Shape(c.indices_shape)) << "case " << i;
    ASSERT_EQ(bytes(dropped), expected) << "case " << i;
    const GatherOptions error{GetParam(), OutOfBoundsPolicy::kError, c.axis, 0, {}};
    if (bad >= 0) {
      ++rejected;
      ASSERT_EQ(invalid_argument_text([&] { gather_elements(params, indices, error); }), text)
          << "case " << i;
    } else {
      ++accepted;
      ASSERT_EQ(bytes(gather_elements(params, indices, error)), expected) << "case " << i;
    }
    ASSERT_EQ(bytes(params), c.tensor);
  }
  EXPECT_GT(rejected, el::random_cases() / 20);
  EXPECT_GT(accepted, el::random_cases() / 4);
}

}  // namespace
}  // namespace tensorbuf
