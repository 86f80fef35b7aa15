// The float -> uint8 fast path of src/core/convert.cpp (vectorised, non-temporal stores for long
// ranges) must give exactly the rule of spec/tensor_buffer.md rule 9 -- clamp to [0, 255] in
// double, truncate toward zero, NaN -> 0 -- whatever the length and the alignment of a chunk.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "cpu/cpu_features.hpp"
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

// An independent reference for float -> a binary format with `significand` bits, subnormals
// down to 2^min_ulp and +-inf from 2^max_exponent: the value rounded to nearest even in double
// (exact: every step is a power-of-two scaling or an integer rounding).
double round_to_format(float f, int significand, int min_ulp, int max_exponent) {
  const double d = f;
  if (std::isinf(d) || d == 0.0) return d;
  int e = 0;
  std::frexp(d, &e);  // |d| = m * 2^e, m in [0.5, 1)
  const double ulp = std::ldexp(1.0, std::max(e - significand, min_ulp));
  const double r = std::nearbyint(d / ulp) * ulp;  // the default rounding: to nearest even
  if (std::fabs(r) >= std::ldexp(1.0, max_exponent)) return std::copysign(INFINITY, d);
  return r;
}

// Bit patterns over every exponent, with the dropped bits of both formats at and around a tie.
std::vector<float> conversion_inputs() {
  std::vector<float> values;
  for (std::uint64_t u = 0; u <= 0xffffffffull; u += 4099) {
    values.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(u)));
  }
  for (std::uint32_t exponent = 0; exponent < 256; ++exponent) {
    for (std::uint32_t low : {0x0fffu, 0x1000u, 0x1001u, 0x2000u | 0x1000u, 0x7fffu, 0x8000u,
                              0x8001u, 0x18000u}) {
      for (std::uint32_t sign : {0u, 0x80000000u}) {
        values.push_back(std::bit_cast<float>(sign | exponent << 23 | low));
      }
    }
  }
  return values;
}

// Checks `out` (the 16-bit results of load_array) against the reference; NaN must stay a quiet
// NaN with its sign and its payload's top bits.
template <class Half>
void expect_conversions(const std::vector<float>& in, const Half* out, int significand,
                        int min_ulp, int max_exponent, int payload_shift, std::uint16_t quiet) {
  std::int64_t wrong = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::uint32_t u = std::bit_cast<std::uint32_t>(in[i]);
    const float got = static_cast<float>(out[i]);
    bool ok = false;
    if (std::isnan(in[i])) {
      const std::uint16_t expected =
          static_cast<std::uint16_t>((u >> 16 & 0x8000u) | quiet |
                                     ((u & 0x7fffffu) >> payload_shift));
      ok = std::isnan(got) && (out[i].bits | quiet) == expected;
    } else {
      const double r = round_to_format(in[i], significand, min_ulp, max_exponent);
      ok = static_cast<double>(got) == r && std::signbit(got) == std::signbit(in[i]);
    }
    if (!ok && wrong++ < 5) {
      ADD_FAILURE() << "input bits 0x" << std::hex << u << " gave bits 0x" << out[i].bits;
    }
  }
  EXPECT_EQ(wrong, 0);
}

class ConvertHalfTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { cpu::set_simd_enabled(GetParam()); }
  void TearDown() override { cpu::set_simd_enabled(true); }
};

TEST_P(ConvertHalfTest, FloatToFloat16RoundsToNearestEvenLikeTheReference) {
  const std::vector<float> in = conversion_inputs();
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat16);
  b.load_array(in, Shape{static_cast<std::int64_t>(in.size())});
  // binary16: 11 significant bits, subnormals down to 2^-24, inf from 2^16 (65520 rounds up).
  expect_conversions(in, b.host<float16>(), 11, -24, 16, 13, 0x7e00);
}

TEST_P(ConvertHalfTest, FloatToBfloat16RoundsToNearestEvenLikeTheReference) {
  const std::vector<float> in = conversion_inputs();
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kBFloat16);
  b.load_array(in, Shape{static_cast<std::int64_t>(in.size())});
  // bfloat16: 8 significant bits, subnormals down to 2^-133, inf from 2^128.
  expect_conversions(in, b.host<bfloat16>(), 8, -133, 128, 16, 0x7fc0);
}

INSTANTIATE_TEST_SUITE_P(SimdAndPortable, ConvertHalfTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& simd) {
                           return simd.param ? "Simd" : "Portable";
                         });

}  // namespace
}  // namespace tensorbuf
