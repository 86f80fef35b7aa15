// float16 / bfloat16: round-to-nearest-even conversions, overflow to inf, NaN kept.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "tensorbuf/half.hpp"

namespace tensorbuf {
namespace {

// Independent reference: exact rounding of a double to binary16 by scanning representable
// values (slow, only for the test).
double nearest_half_reference(double x) {
  if (std::isnan(x)) return x;
  const double max_half = 65504.0;
  const double sign = std::signbit(x) ? -1.0 : 1.0;
  double a = std::fabs(x);
  if (a >= 65520.0) return sign * std::numeric_limits<double>::infinity();
  // ulp in the binade of a (subnormals share 2^-24).
  int exp = a < std::ldexp(1.0, -14) ? -14 : std::ilogb(a);
  const double ulp = std::ldexp(1.0, exp - 10);
  const double down = std::floor(a / ulp) * ulp;
  const double up = down + ulp;
  double r;
  if (a - down < up - a) {
    r = down;
  } else if (a - down > up - a) {
    r = up;
  } else {
    r = std::fmod(down / ulp, 2.0) == 0.0 ? down : up;
  }
  return sign * std::fmin(r, std::fabs(r) > max_half ? INFINITY : r);
}

TEST(Float16Test, SpecVectorsRoundToNearestEven) {  // TB17
  EXPECT_EQ(float(float16(1.0f + std::ldexp(1.0f, -11))), 1.0f);
  EXPECT_EQ(float(float16(1.0f + 3 * std::ldexp(1.0f, -11))), 1.0f + std::ldexp(1.0f, -9));
  EXPECT_EQ(float(float16(65519.0f)), 65504.0f);
  EXPECT_EQ(float(float16(65520.0f)), std::numeric_limits<float>::infinity());
  EXPECT_EQ(float(float16(-65520.0f)), -std::numeric_limits<float>::infinity());
}

TEST(Float16Test, NaNStaysNaNAndInfinitiesStay) {
  EXPECT_TRUE(std::isnan(float(float16(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(float(float16(INFINITY)), INFINITY);
  EXPECT_EQ(float(float16(-INFINITY)), -INFINITY);
  EXPECT_EQ(float16(-0.0f).bits, 0x8000u);
}

TEST(Float16Test, SubnormalsRoundCorrectly) {
  EXPECT_EQ(float(float16(std::ldexp(1.0f, -24))), std::ldexp(1.0f, -24));
  EXPECT_EQ(float(float16(std::ldexp(1.0f, -25))), 0.0f);            // tie -> even (0)
  EXPECT_EQ(float(float16(std::ldexp(3.0f, -25))), std::ldexp(2.0f, -24));  // tie -> even
  EXPECT_EQ(float16(std::ldexp(1.0f, -14)).bits, 0x0400u);            // smallest normal
}

TEST(Float16Test, MatchesExactReferenceOnManyValues) {
  // Every float16 value, midpoints between neighbours, and nearby floats.
  for (std::uint32_t bits = 0; bits < 0x7c00u; ++bits) {
    const float value = float(float16::from_bits(static_cast<std::uint16_t>(bits)));
    ASSERT_EQ(float16(value).bits, bits) << "roundtrip of " << value;
    const float next = float(float16::from_bits(static_cast<std::uint16_t>(bits + 1)));
    for (float probe : {(value + next) / 2, std::nextafter((value + next) / 2, 0.0f),
                        std::nextafter((value + next) / 2, INFINITY)}) {
      ASSERT_EQ(float(float16(probe)), nearest_half_reference(probe)) << probe;
      ASSERT_EQ(float(float16(-probe)), nearest_half_reference(-probe)) << -probe;
    }
  }
}

TEST(BFloat16Test, SpecVectorsRoundToNearestEven) {  // TB18
  EXPECT_EQ(float(bfloat16(1.0f + std::ldexp(1.0f, -8))), 1.0f);
  EXPECT_EQ(float(bfloat16(1.0f + 3 * std::ldexp(1.0f, -8))), 1.0f + std::ldexp(1.0f, -6));
  EXPECT_TRUE(std::isnan(float(bfloat16(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(float(bfloat16(std::numeric_limits<float>::max())), INFINITY);
  EXPECT_EQ(float(bfloat16(-INFINITY)), -INFINITY);
}

TEST(HalfArithmeticTest, RoundsEachOperation) {
  const float16 one(1.0f);
  const float16 tiny(std::ldexp(1.0f, -11));  // half an ulp of 1
  EXPECT_EQ(float(one + tiny), 1.0f);         // ties to even
  EXPECT_EQ(float(float16(2.0f) - float16(3.0f)), -1.0f);
  EXPECT_TRUE(float16(1.0f) < float16(2.0f));
  EXPECT_EQ(float(-float16(2.0f)), -2.0f);
  EXPECT_EQ(float(bfloat16(1.5f) * bfloat16(2.0f)), 3.0f);
}

}  // namespace
}  // namespace tensorbuf
