// normalize, quantize, dequantize, cast: spec/processing.md 1-3 with exact values and error
// classes (the rules of TFLite Support's NormalizeOp, QuantizeOp, DequantizeOp, CastOp), and a
// randomized comparison with a float32 reference written here (double arithmetic rounded once
// per Java operation, which is exact for + - / of float32 operands).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

#include "core/in_place.hpp"
#include "support/devices.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

TensorBuffer make(const Shape& shape, DataType type, const std::vector<double>& values) {
  TensorBuffer f64 = TensorBuffer::create_fixed_size(shape, DataType::kFloat64);
  double* p = f64.mutable_host<double>();
  for (std::size_t i = 0; i < values.size(); ++i) p[i] = values[i];
  return type == DataType::kFloat64 ? std::move(f64) : TensorBuffer::create_from(f64, type);
}

std::vector<float> floats(const TensorBuffer& y) {
  EXPECT_EQ(y.data_type(), DataType::kFloat32);
  const float* p = y.host<float>();
  return {p, p + y.shape().num_elements()};
}

// The identity shares the input's memory (no copy).
bool same_memory(const TensorBuffer& a, const TensorBuffer& b) { return core::shares_memory(a, b); }

// --- NormalizeOp rules ---

TEST(Normalize, ScalarFloatValues) {
  const TensorBuffer x = make({4}, DataType::kFloat32, {0, 1, 2.5, -3});
  const TensorBuffer y = normalize(x, 0.5f, 2.0f);
  EXPECT_EQ(y.shape(), Shape({4}));
  EXPECT_EQ(floats(y), (std::vector<float>{-0.25f, 0.25f, 1.0f, -1.75f}));
}

TEST(Normalize, Uint8ImageToFloat32) {
  const TensorBuffer x = make({2, 2}, DataType::kUInt8, {0, 127, 128, 255});
  const TensorBuffer y = normalize(x, 127.5f, 127.5f);
  EXPECT_EQ(y.data_type(), DataType::kFloat32);
  EXPECT_EQ(y.shape(), Shape({2, 2}));
  const std::vector<float> expected = {-1.0f, (127.0f - 127.5f) / 127.5f,
                                       (128.0f - 127.5f) / 127.5f, 1.0f};
  EXPECT_EQ(floats(y), expected);
}

TEST(Normalize, DivisionNotReciprocalProduct) {
  // 5.0f / 3.0f and 5.0f * (1 / 3.0f) differ in float32.
  const float a = 5.0f;
  const float s = 3.0f;
  ASSERT_NE(a / s, a * (1.0f / s));
  const TensorBuffer y = normalize(make({1}, DataType::kFloat32, {a}), 0.0f, s);
  EXPECT_EQ(floats(y)[0], a / s);
}

TEST(Normalize, ZeroMeanZeroOrInfStddevIsIdentity) {
  const TensorBuffer x = make({3}, DataType::kInt32, {1, 2, 3});
  for (float s : {0.0f, kInf, -kInf}) {
    const TensorBuffer y = normalize(x, 0.0f, s);
    EXPECT_EQ(y.data_type(), DataType::kInt32);
    EXPECT_TRUE(same_memory(y, x)) << s;
  }
  const TensorBuffer y = normalize(x, 0.0f, 1.0f);
  EXPECT_TRUE(same_memory(y, x));
  // -0.0f == 0.0f, as in Java's float comparison.
  EXPECT_TRUE(same_memory(normalize(x, -0.0f, 1.0f), x));
}

TEST(Normalize, ZeroStddevWithNonZeroMeanIsAnError) {
  const TensorBuffer x = make({3}, DataType::kFloat32, {1, 2, 3});
  EXPECT_THROW(normalize(x, 1.0f, 0.0f), InvalidArgumentError);
  EXPECT_THROW(normalize(x, 1.0f, -0.0f), InvalidArgumentError);
}

TEST(Normalize, NonZeroMeanInfStddevIsApplied) {
  const TensorBuffer y = normalize(make({2}, DataType::kFloat32, {1, -1}), 2.0f, kInf);
  EXPECT_EQ(floats(y), (std::vector<float>{-0.0f, -0.0f}));
  EXPECT_TRUE(std::signbit(floats(y)[0]));
}

TEST(Normalize, ArrayFormHasNoBypass) {
  const TensorBuffer x = make({3}, DataType::kFloat32, {1, 2, 3});
  EXPECT_THROW(normalize(x, std::vector<float>{0.0f}, std::vector<float>{0.0f}),
               InvalidArgumentError);
  EXPECT_THROW(normalize(x, std::vector<float>{1.0f, 2.0f}, std::vector<float>{1.0f}),
               InvalidArgumentError);
  EXPECT_THROW(normalize(x, std::vector<float>{}, std::vector<float>{}), InvalidArgumentError);
  EXPECT_THROW(normalize(x, std::vector<float>{0, 0}, std::vector<float>{1, 0}),
               InvalidArgumentError);
}

TEST(Normalize, PerChannelOverLastAxis) {
  const TensorBuffer x = make({2, 3}, DataType::kUInt8, {10, 20, 30, 40, 50, 60});
  const TensorBuffer y = normalize(x, {1.0f, 2.0f, 3.0f}, {2.0f, 4.0f, 8.0f});
  EXPECT_EQ(y.shape(), Shape({2, 3}));
  EXPECT_EQ(floats(y), (std::vector<float>{4.5f, 4.5f, 3.375f, 19.5f, 12.0f, 7.125f}));
}

TEST(Normalize, ChannelCountMustMatchLastAxis) {
  const TensorBuffer x = make({3, 2}, DataType::kFloat32, {1, 2, 3, 4, 5, 6});
  EXPECT_THROW(normalize(x, {1.0f, 2.0f, 3.0f}, {1.0f, 1.0f, 1.0f}), InvalidArgumentError);
  const TensorBuffer scalar = make({}, DataType::kFloat32, {1});
  EXPECT_THROW(normalize(scalar, {1.0f, 2.0f}, {1.0f, 1.0f}), InvalidArgumentError);
  // One channel fits any shape, rank 0 included.
  EXPECT_EQ(floats(normalize(scalar, std::vector<float>{1.0f}, std::vector<float>{2.0f})),
            std::vector<float>{0.0f});
}

TEST(Normalize, IdentityComesBeforeTheChannelCheck) {
  const TensorBuffer x = make({3, 2}, DataType::kInt16, {1, 2, 3, 4, 5, 6});
  const TensorBuffer y = normalize(x, {0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f});
  EXPECT_EQ(y.data_type(), DataType::kInt16);
  EXPECT_TRUE(same_memory(y, x));
}

TEST(Normalize, DynamicStaysDynamic) {
  TensorBuffer x = TensorBuffer::create_dynamic(DataType::kFloat32);
  x.load_array(std::vector<float>{2, 4}, Shape({2}));
  const TensorBuffer y = normalize(x, 1.0f, 2.0f);
  EXPECT_TRUE(y.is_dynamic());
  EXPECT_EQ(floats(y), (std::vector<float>{0.5f, 1.5f}));
  EXPECT_FALSE(normalize(make({1}, DataType::kFloat32, {1}), 1.0f, 2.0f).is_dynamic());
}

TEST(Normalize, InputUnchanged) {
  const TensorBuffer x = make({2}, DataType::kFloat32, {3, 5});
  (void)normalize(x, 1.0f, 2.0f);
  EXPECT_EQ(floats(x), (std::vector<float>{3, 5}));
}

// --- QuantizeOp / DequantizeOp ---

TEST(Quantize, IsNormalizeWithMinusZeroPointTimesScale) {
  const TensorBuffer x = make({3}, DataType::kFloat32, {0.5, 1.0, -2.0});
  const float zp = 3.0f;
  const float s = 0.1f;
  const float mean = -zp * s;
  const std::vector<float> expected = {(0.5f - mean) / s, (1.0f - mean) / s, (-2.0f - mean) / s};
  EXPECT_EQ(floats(quantize(x, zp, s)), expected);
  EXPECT_EQ(floats(quantize(x, zp, s)), floats(normalize(x, mean, s)));
}

TEST(Quantize, ZeroScaleIsIdentity) {
  const TensorBuffer x = make({2}, DataType::kUInt8, {1, 2});
  EXPECT_TRUE(same_memory(quantize(x, 5.0f, 0.0f), x));
}

TEST(Dequantize, IsNormalizeWithReciprocalScale) {
  const TensorBuffer x = make({3}, DataType::kUInt8, {0, 128, 255});
  const float zp = 128.0f;
  const float s = 0.0078125f;
  const float stddev = 1.0f / s;
  EXPECT_EQ(floats(dequantize(x, zp, s)),
            (std::vector<float>{(0.0f - zp) / stddev, 0.0f, (255.0f - zp) / stddev}));
  // 1 / 0.1f rounds to float32 before the division.
  const TensorBuffer y = dequantize(make({1}, DataType::kFloat32, {7}), 0.0f, 0.1f);
  EXPECT_EQ(floats(y)[0], 7.0f / (1.0f / 0.1f));
}

TEST(Dequantize, ZeroZeroIsIdentity) {
  const TensorBuffer x = make({2}, DataType::kInt8, {-1, 2});
  EXPECT_TRUE(same_memory(dequantize(x, 0.0f, 0.0f), x));
}

// --- CastOp ---

TEST(Cast, SameTypeSharesMemory) {
  const TensorBuffer x = make({2}, DataType::kFloat32, {1.5, 2});
  EXPECT_TRUE(same_memory(cast(x, DataType::kFloat32), x));
}

TEST(Cast, Float32ToUint8SaturatesAndNaNIsZero) {
  const TensorBuffer x = make({5}, DataType::kFloat32,
                              {-3.0, 300.0, 7.0, std::numeric_limits<double>::quiet_NaN(), 1.0});
  const TensorBuffer y = cast(x, DataType::kUInt8);
  const TensorBuffer expected = TensorBuffer::create_from(x, DataType::kUInt8);
  ASSERT_EQ(y.data_type(), DataType::kUInt8);
  const std::uint8_t* p = y.host<std::uint8_t>();
  EXPECT_EQ(std::vector<int>(p, p + 5),
            std::vector<int>(expected.host<std::uint8_t>(), expected.host<std::uint8_t>() + 5));
  EXPECT_EQ(p[0], 0);
  EXPECT_EQ(p[1], 255);
  EXPECT_EQ(p[2], 7);
  EXPECT_EQ(p[3], 0);
}

TEST(Cast, Uint8ToFloat32) {
  const TensorBuffer y = cast(make({3}, DataType::kUInt8, {0, 1, 255}), DataType::kFloat32);
  EXPECT_EQ(floats(y), (std::vector<float>{0, 1, 255}));
}

// --- TensorFlow Lite Support's unit tests (java/src/javatests/.../common/ops/*OpTest.java),
// ported: each Java test and its values ---

struct TfliteNormalizeCase {
  const char* java_test;
  DataType type;
  Shape shape;
  std::vector<float> means;
  std::vector<float> stddevs;
};

TEST(TfliteSupport, NormalizeOpTestValues) {
  const std::vector<TfliteNormalizeCase> cases = {
      {"testNormalizeIntBuffer", DataType::kUInt8, {100}, {50}, {50}},
      {"testNormalizeFloatBuffer", DataType::kFloat32, {100}, {50}, {50}},
      {"testMultiChannelNormalize", DataType::kFloat32, {20, 5}, {1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}},
  };
  for (const TfliteNormalizeCase& c : cases) {
    SCOPED_TRACE(c.java_test);
    std::vector<double> values(100);
    for (int i = 0; i < 100; ++i) values[static_cast<std::size_t>(i)] = i;
    TensorBuffer x = TensorBuffer::create_dynamic(c.type);
    x.load_array(std::vector<float>(values.begin(), values.end()), c.shape);
    const TensorBuffer y = c.means.size() == 1 ? normalize(x, c.means[0], c.stddevs[0])
                                               : normalize(x, c.means, c.stddevs);
    ASSERT_EQ(y.data_type(), DataType::kFloat32);
    const std::vector<float> got = floats(y);
    const std::size_t k = c.means.size();
    for (std::size_t i = 0; i < 100; ++i) {
      EXPECT_EQ(got[i], (static_cast<float>(i) - c.means[i % k]) / c.stddevs[i % k]) << i;
    }
  }
}

TEST(TfliteSupport, NormalizeOpTestShortcutsAndErrors) {
  const TensorBuffer x = TensorBuffer::create_fixed_size({3, 3}, DataType::kUInt8);
  // testIdentityShortcut, testNormalizeOp_zeroMeanAndZeroStddev,
  // testNormalizeOp_zeroMeanAndInifityStddev, testMultiChannelShortcut.
  EXPECT_TRUE(same_memory(normalize(x, 0, 1), x));
  EXPECT_TRUE(same_memory(normalize(x, 0, 0), x));
  EXPECT_TRUE(same_memory(normalize(x, 0, kInf), x));
  EXPECT_TRUE(same_memory(normalize(x, {0, 0, 0}, {1, 1, 1}), x));
  EXPECT_EQ(normalize(x, 0, 1).data_type(), DataType::kUInt8);
  // testZeroStddev, testMismatchedNumbersOfMeansAndStddevs, testMismatchedInputTensorChannelNum,
  // testAnyChannelInvalidStddev.
  EXPECT_THROW(normalize(x, 1, 0), InvalidArgumentError);
  EXPECT_THROW(normalize(x, {2, 3}, std::vector<float>{1}), InvalidArgumentError);
  EXPECT_THROW(normalize(x, {0, 0}, {1, 2}), InvalidArgumentError);
  EXPECT_THROW(normalize(x, {2, 3}, {1, 0}), InvalidArgumentError);
}

TEST(TfliteSupport, QuantizeAndDequantizeOpTest) {
  // quantizeShouldSuccess / dequantizeShouldSucess: zero point 127, scale 1/128.
  const std::vector<double> real = {0.5, 0.25, -0.5, 0, 1, -0.9921875};
  const std::vector<double> quantized = {191, 159, 63, 127, 255, 0};
  const TensorBuffer q = quantize(make({6}, DataType::kFloat32, real), 127.0f, 1.0f / 128);
  EXPECT_EQ(floats(q), std::vector<float>(quantized.begin(), quantized.end()));
  const TensorBuffer d = dequantize(make({6}, DataType::kUInt8, quantized), 127.0f, 1.0f / 128);
  EXPECT_EQ(floats(d), std::vector<float>(real.begin(), real.end()));
}

TEST(TfliteSupport, CastOpTest) {
  const std::vector<double> float_array = {1.1f, 3.3f, 5.5f, 7.7f, 9.9f};
  // castFloat32ToUint8ShouldSuccess: truncation toward zero, as Java's (int) cast.
  const TensorBuffer u8 = cast(make({5}, DataType::kFloat32, float_array), DataType::kUInt8);
  ASSERT_EQ(u8.data_type(), DataType::kUInt8);
  const std::uint8_t* p = u8.host<std::uint8_t>();
  EXPECT_EQ(std::vector<int>(p, p + 5), (std::vector<int>{1, 3, 5, 7, 9}));
  // castUint8ToFloat32ShouldSuccess.
  const TensorBuffer f = cast(make({5}, DataType::kUInt8, {1, 3, 5, 7, 9}), DataType::kFloat32);
  EXPECT_EQ(floats(f), (std::vector<float>{1, 3, 5, 7, 9}));
  // castFloat32ToFloat32ShouldNotRecreate, castUint8ToUint8ShouldNotRecreate.
  EXPECT_TRUE(same_memory(cast(f, DataType::kFloat32), f));
  EXPECT_TRUE(same_memory(cast(u8, DataType::kUInt8), u8));
  // castToUnsupportedDataTypeShouldThrow (int32, int64): allowed here (spec 3, beyond).
  const TensorBuffer i64 = cast(f, DataType::kInt64);
  EXPECT_EQ(i64.data_type(), DataType::kInt64);
  EXPECT_EQ(i64.host<std::int64_t>()[4], 9);
}

// --- randomized, every source dtype ---

int random_cases() {
  if (const char* env = std::getenv("TENSORBUF_RANDOM_CASES")) return std::max(1, std::atoi(env));
  return 150;
}

TEST(NormalizeRandom, EveryDtypeAgainstReference) {
  const std::vector<DataType> types = {DataType::kBool,    DataType::kUInt8,    DataType::kInt8,
                                       DataType::kInt16,   DataType::kInt32,    DataType::kInt64,
                                       DataType::kFloat16, DataType::kBFloat16, DataType::kFloat32,
                                       DataType::kFloat64};
  std::mt19937 rng(37);
  for (int iteration = 0; iteration < random_cases(); ++iteration) {
    const DataType type = types[static_cast<std::size_t>(iteration) % types.size()];
    const bool is_float = type == DataType::kFloat16 || type == DataType::kBFloat16 ||
                          type == DataType::kFloat32 || type == DataType::kFloat64;
    const int channels = 1 + static_cast<int>(rng() % 5);
    const int rows = 1 + static_cast<int>(rng() % 3000);
    std::vector<double> values(static_cast<std::size_t>(rows * channels));
    for (double& v : values) {
      // Exact in every dtype: 0/1 for bool, 0..127 for integers, halves up to 127.5 for floats.
      v = type == DataType::kBool ? static_cast<double>(rng() % 2)
          : is_float              ? static_cast<double>(rng() % 256) * 0.5
                                  : static_cast<double>(rng() % 128);
    }
    std::uniform_real_distribution<float> mean_d(-200.0f, 200.0f);
    std::uniform_real_distribution<float> std_d(0.01f, 100.0f);
    std::vector<float> mean(static_cast<std::size_t>(channels));
    std::vector<float> stddev(static_cast<std::size_t>(channels));
    for (int c = 0; c < channels; ++c) {
      mean[static_cast<std::size_t>(c)] = mean_d(rng);
      stddev[static_cast<std::size_t>(c)] = (rng() % 2 ? 1.0f : -1.0f) * std_d(rng);
    }
    const TensorBuffer x = make({rows, channels}, type, values);
    const std::vector<float> got = floats(normalize(x, mean, stddev));
    for (std::size_t i = 0; i < values.size(); ++i) {
      const std::size_t c = i % static_cast<std::size_t>(channels);
      // Java's two float32 roundings, each done in double and rounded once.
      const auto diff = static_cast<float>(values[i] - static_cast<double>(mean[c]));
      const auto ref = static_cast<float>(static_cast<double>(diff) / stddev[c]);
      ASSERT_EQ(got[i], ref) << "dtype " << to_string(type) << " element " << i;
    }
  }
}

// --- CUDA: the result is valid on the requested device ---

TEST(ProcessingCUDA, ResultOnDevice) {
  TENSORBUF_SKIP_WITHOUT_CUDA(Device::cuda(0));
  const TensorBuffer x = make({2, 3}, DataType::kUInt8, {10, 20, 30, 40, 50, 60});
  ProcessOptions options;
  options.device = Device::cuda(0);
  const TensorBuffer y = normalize(x, {1.0f, 2.0f, 3.0f}, {2.0f, 4.0f, 8.0f}, options);
  EXPECT_TRUE(y.is_valid_on(Device::cuda(0)));
  EXPECT_EQ(floats(y), (std::vector<float>{4.5f, 4.5f, 3.375f, 19.5f, 12.0f, 7.125f}));
  const TensorBuffer c = cast(x, DataType::kFloat32, options);
  EXPECT_TRUE(c.is_valid_on(Device::cuda(0)));
}

}  // namespace
}  // namespace tensorbuf
