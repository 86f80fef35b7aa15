// The float -> uint8 fast path of src/core/convert.cpp (vectorised, non-temporal stores for long
// ranges) must give exactly the rule of spec/tensor_buffer.md rule 9 -- clamp to [0, 255] in
// double, truncate toward zero, NaN -> 0 -- whatever the length and the alignment of a chunk.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

std::uint8_t reference(float f) {
  const double d = f;
  if (std::isnan(d) || d <= 0.0) return 0;
  if (d >= 255.0) return 255;
  return static_cast<std::uint8_t>(d);
}

std::vector<float> special_values() {
  const float inf = std::numeric_limits<float>::infinity();
  return {0.0f, -0.0f, 0.5f, 0.999999f, 1.0f, 127.5f, 254.9f, 254.99998f, 255.0f, 255.5f,
          256.0f, 400.32f, -23.04f, -0.7f, 1e30f, -1e30f, inf, -inf,
          std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
          std::numeric_limits<float>::denorm_min(), 2147483648.0f, -2147483904.0f, 65535.0f};
}

TEST(ConvertFastPath, FloatToUint8MatchesTheRuleAtEveryLengthAndOffset) {
  const std::vector<float> specials = special_values();
  // Long enough for the streaming path in every thread's chunk, odd so chunks start unaligned.
  for (std::int64_t n : {std::int64_t{1}, std::int64_t{17}, std::int64_t{4099},
                         std::int64_t{3'000'001}, std::int64_t{(1 << 21) + 13}}) {
    std::vector<float> values(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < values.size(); ++i) {
      values[i] = i % 3 == 0 ? specials[(i / 3) % specials.size()]
                             : static_cast<float>(static_cast<double>(i % 1000) * 0.37 - 60.0);
    }
    TensorBuffer b = TensorBuffer::create_dynamic(DataType::kUInt8);
    b.load_array(values, Shape{n});
    const auto* out = b.host<std::uint8_t>();
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      if (out[i] != reference(values[static_cast<std::size_t>(i)]) && wrong++ < 5) {
        ADD_FAILURE() << "n=" << n << " i=" << i << " value " << values[static_cast<std::size_t>(i)]
                      << " gave " << int{out[i]};
      }
    }
    EXPECT_EQ(wrong, 0) << "n=" << n;
  }
}

TEST(ConvertFastPath, FloatToBoolIsNotTakenByTheUint8Path) {
  std::vector<float> values(3'000'001, 0.25f);  // nonzero -> true (1), not truncated to 0
  values[5] = 0.0f;
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kBool);
  b.load_array(values, Shape{static_cast<std::int64_t>(values.size())});
  const auto* out = b.host<std::uint8_t>();
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[5], 0);
  EXPECT_EQ(out[values.size() - 1], 1);
}

}  // namespace
}  // namespace tensorbuf
