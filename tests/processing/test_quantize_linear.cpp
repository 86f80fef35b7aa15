// quantize_linear / dequantize_linear: ONNX's operator examples with exact values, the rules
// of spec/processing.md 5 with their error class, and a randomized comparison with a reference
// written here (double arithmetic rounded once per float32 operation).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

#include "cpu/cpu_features.hpp"
#include "support/devices.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TensorBuffer make(const Shape& shape, DataType type, const std::vector<double>& values) {
  TensorBuffer f64 = TensorBuffer::create_fixed_size(shape, DataType::kFloat64);
  double* p = f64.mutable_host<double>();
  for (std::size_t i = 0; i < values.size(); ++i) p[i] = values[i];
  return type == DataType::kFloat64 ? std::move(f64) : TensorBuffer::create_from(f64, type);
}

std::vector<double> values(const TensorBuffer& y) {
  const TensorBuffer d = TensorBuffer::create_from(y, DataType::kFloat64);
  const double* p = d.host<double>();
  return {p, p + d.shape().num_elements()};
}

TEST(QuantizeLinear, OnnxExamplePerTensor) {
  const TensorBuffer x = make({6}, DataType::kFloat32, {0, 2, 3, 1000, -254, -1000});
  const TensorBuffer y =
      quantize_linear(x, make({}, DataType::kFloat32, {2}), make({}, DataType::kUInt8, {128}));
  EXPECT_EQ(y.data_type(), DataType::kUInt8);
  EXPECT_EQ(values(y), (std::vector<double>{128, 129, 130, 255, 1, 0}));
}

TEST(QuantizeLinear, OnnxExampleAxis) {
  const TensorBuffer x = make(
      {1, 3, 3, 2}, DataType::kFloat32,
      {-162, 10, -100, 232, -20, -50, -76, 0, 0, 252, 32, -44, 245, -485, -960, -270, -375, -470});
  const TensorBuffer y = quantize_linear(x, make({3}, DataType::kFloat32, {2, 4, 5}),
                                         make({3}, DataType::kUInt8, {84, 24, 196}));
  EXPECT_EQ(y.shape(), Shape({1, 3, 3, 2}));
  EXPECT_EQ(values(y), (std::vector<double>{3, 89, 34, 200, 74, 59, 5, 24, 24, 87, 32, 13, 245, 99,
                                            4, 142, 121, 102}));
  // The same channels named from the end.
  QuantizeLinearOptions options;
  options.axis = -3;
  EXPECT_EQ(values(quantize_linear(x, make({3}, DataType::kFloat32, {2, 4, 5}),
                                   make({3}, DataType::kUInt8, {84, 24, 196}), options)),
            values(y));
}

TEST(QuantizeLinear, HalfToEvenNaNAndSaturation) {
  const TensorBuffer x =
      make({9}, DataType::kFloat32, {0.5, 1.5, 2.5, -0.5, -1.5, kNaN, kInf, -kInf, 300});
  const TensorBuffer one = make({1}, DataType::kFloat32, {1});
  EXPECT_EQ(values(quantize_linear(x, one, make({1}, DataType::kInt8, {0}))),
            (std::vector<double>{0, 2, 2, -0.0, -2, 0, 127, -128, 127}));
  EXPECT_EQ(values(quantize_linear(x, one, make({1}, DataType::kUInt8, {10}))),
            (std::vector<double>{10, 12, 12, 10, 8, 10, 255, 0, 255}));
  EXPECT_EQ(values(quantize_linear(x, one, make({1}, DataType::kInt16, {-5}))),
            (std::vector<double>{-5, -3, -3, -5, -7, -5, 32767, -32768, 295}));
}

TEST(QuantizeLinear, Float64ComputesInFloat64AndInt32Input) {
  // 2^-30 + 0.5 is above the tie in float64 but rounds to the tie 0.5 in float32.
  const double v = 0.5 + std::ldexp(1.0, -30);
  const TensorBuffer zp = make({}, DataType::kInt16, {0});
  EXPECT_EQ(values(quantize_linear(make({1}, DataType::kFloat64, {v}),
                                   make({}, DataType::kFloat64, {1}), zp)),
            std::vector<double>{1});
  EXPECT_EQ(values(quantize_linear(make({1}, DataType::kFloat32, {v}),
                                   make({}, DataType::kFloat32, {1}), zp)),
            std::vector<double>{0});
  EXPECT_EQ(values(quantize_linear(make({3}, DataType::kInt32, {7, -7, 100}),
                                   make({}, DataType::kFloat32, {2}), zp)),
            (std::vector<double>{4, -4, 50}));
}

TEST(QuantizeLinear, Errors) {
  const TensorBuffer x = make({2, 3}, DataType::kFloat32, {1, 2, 3, 4, 5, 6});
  const TensorBuffer zp = make({}, DataType::kUInt8, {0});
  for (double bad : {0.0, -1.0, kInf, kNaN}) {
    EXPECT_THROW(quantize_linear(x, make({}, DataType::kFloat32, {bad}), zp), InvalidArgumentError)
        << bad;
  }
  const TensorBuffer s = make({}, DataType::kFloat32, {1});
  EXPECT_THROW(quantize_linear(make({1}, DataType::kUInt8, {1}), s, zp), InvalidArgumentError);
  EXPECT_THROW(quantize_linear(x, s, make({}, DataType::kInt32, {0})), InvalidArgumentError);
  EXPECT_THROW(quantize_linear(x, make({}, DataType::kInt32, {1}), zp), InvalidArgumentError);
  // Per axis: length of x.shape[axis], scale and zero point of one shape, axis in range.
  const TensorBuffer s3 = make({3}, DataType::kFloat32, {1, 1, 1});
  const TensorBuffer z3 = make({3}, DataType::kUInt8, {0, 0, 0});
  EXPECT_NO_THROW(quantize_linear(x, s3, z3));
  QuantizeLinearOptions axis0;
  axis0.axis = 0;
  EXPECT_THROW(quantize_linear(x, s3, z3, axis0), InvalidArgumentError);
  QuantizeLinearOptions axis2;
  axis2.axis = 2;
  EXPECT_THROW(quantize_linear(x, s3, z3, axis2), InvalidArgumentError);
  EXPECT_THROW(quantize_linear(x, s3, make({2}, DataType::kUInt8, {0, 0})), InvalidArgumentError);
  EXPECT_THROW(quantize_linear(x, make({1, 3}, DataType::kFloat32, {1, 1, 1}),
                               make({1, 3}, DataType::kUInt8, {0, 0, 0})),
               InvalidArgumentError);
}

TEST(DequantizeLinear, OnnxExamples) {
  const TensorBuffer x = make({4}, DataType::kUInt8, {0, 3, 128, 255});
  const TensorBuffer y =
      dequantize_linear(x, make({}, DataType::kFloat32, {2}), make({}, DataType::kUInt8, {128}));
  EXPECT_EQ(y.data_type(), DataType::kFloat32);
  EXPECT_EQ(values(y), (std::vector<double>{-256, -250, 0, 254}));
  // Axis 1 of [1, 3, 2, 2].
  const TensorBuffer xa =
      make({1, 3, 2, 2}, DataType::kUInt8, {3, 89, 34, 200, 74, 59, 5, 24, 24, 87, 32, 13});
  const TensorBuffer ya = dequantize_linear(xa, make({3}, DataType::kFloat32, {2, 4, 5}),
                                            make({3}, DataType::kUInt8, {84, 24, 196}));
  EXPECT_EQ(values(ya),
            (std::vector<double>{-162, 10, -100, 232, 200, 140, -76, 0, -860, -545, -820, -915}));
}

TEST(DequantizeLinear, Int32AndErrors) {
  const TensorBuffer s = make({}, DataType::kFloat32, {0.5});
  EXPECT_EQ(values(dequantize_linear(make({2}, DataType::kInt32, {7, -9}), s,
                                     make({}, DataType::kInt32, {0}))),
            (std::vector<double>{3.5, -4.5}));
  EXPECT_THROW(
      dequantize_linear(make({2}, DataType::kInt32, {7, -9}), s, make({}, DataType::kInt32, {1})),
      InvalidArgumentError);
  EXPECT_THROW(dequantize_linear(make({2}, DataType::kFloat32, {7, -9}), s,
                                 make({}, DataType::kFloat32, {0})),
               InvalidArgumentError);
  EXPECT_THROW(
      dequantize_linear(make({2}, DataType::kInt8, {7, -9}), s, make({}, DataType::kUInt8, {0})),
      InvalidArgumentError);
  EXPECT_THROW(dequantize_linear(make({2}, DataType::kInt8, {7, -9}),
                                 make({}, DataType::kFloat32, {0}), make({}, DataType::kInt8, {0})),
               InvalidArgumentError);
}

int random_cases() {
  if (const char* env = std::getenv("TENSORBUF_RANDOM_CASES")) return std::max(1, std::atoi(env));
  return 150;
}

TEST(QuantizeLinearRandom, AgainstReferenceEveryDtypePair) {
  const std::vector<DataType> inputs = {DataType::kFloat32, DataType::kFloat16, DataType::kBFloat16,
                                        DataType::kFloat64, DataType::kInt32};
  const std::vector<DataType> outputs = {DataType::kUInt8, DataType::kInt8, DataType::kInt16};
  std::mt19937 rng(5);
  for (int iteration = 0; iteration < random_cases(); ++iteration) {
    const DataType xt = inputs[static_cast<std::size_t>(iteration) % inputs.size()];
    const DataType zt = outputs[static_cast<std::size_t>(iteration / 5) % outputs.size()];
    const int channels = 1 + static_cast<int>(rng() % 4);
    const int rows = 1 + static_cast<int>(rng() % 500);
    std::uniform_real_distribution<double> xd(-3000, 3000);
    std::uniform_real_distribution<double> sd(0.05, 40);
    std::vector<double> xv(static_cast<std::size_t>(rows * channels));
    for (double& v : xv) v = xt == DataType::kInt32 ? std::round(xd(rng)) : xd(rng);
    // The input as the op sees it (x rounded to its dtype), read back exactly.
    const TensorBuffer x = make({rows, channels}, xt, xv);
    xv = values(x);
    std::vector<double> sv(static_cast<std::size_t>(channels));
    std::vector<double> zv(static_cast<std::size_t>(channels));
    const double lo = zt == DataType::kUInt8 ? 0 : zt == DataType::kInt8 ? -128 : -32768;
    const double hi = zt == DataType::kUInt8 ? 255 : zt == DataType::kInt8 ? 127 : 32767;
    for (int c = 0; c < channels; ++c) {
      sv[static_cast<std::size_t>(c)] = static_cast<float>(sd(rng));
      zv[static_cast<std::size_t>(c)] = lo + static_cast<double>(rng() % 256);
    }
    QuantizeLinearOptions options;
    options.axis = -1;
    const TensorBuffer q = quantize_linear(x, make({channels}, DataType::kFloat32, sv),
                                           make({channels}, zt, zv), options);
    ASSERT_EQ(q.data_type(), zt);
    const std::vector<double> got = values(q);
    const bool f64 = xt == DataType::kFloat64;
    for (std::size_t i = 0; i < xv.size(); ++i) {
      const std::size_t c = i % static_cast<std::size_t>(channels);
      double div = xv[i] / sv[c];
      if (!f64) div = static_cast<float>(static_cast<float>(xv[i]) / sv[c]);
      const double expected = std::min(hi, std::max(lo, std::rint(div) + zv[c]));
      ASSERT_EQ(got[i], expected) << to_string(xt) << "->" << to_string(zt) << " element " << i;
    }
    // dequantize_linear of the result: (float32(q) - zp) * scale, one float32 rounding.
    const TensorBuffer d = dequantize_linear(q, make({channels}, DataType::kFloat32, sv),
                                             make({channels}, zt, zv), options);
    const std::vector<double> back = values(d);
    for (std::size_t i = 0; i < xv.size(); ++i) {
      const std::size_t c = i % static_cast<std::size_t>(channels);
      ASSERT_EQ(back[i], static_cast<float>((got[i] - zv[c]) * sv[c])) << i;
    }
  }
}

// Ties, NaN, +-inf, -0, saturation and ordinary values at every vector lane, per tensor and
// per axis (runs of 37 elements per channel: whole vectors and tails), float32 -> each output
// dtype, with the CPU's AVX-512 loop (where it has one) and the portable loop, against the rule
// written here.
TEST(QuantizeLinearSimd, SpecialValuesAtEveryLane) {
  std::mt19937 rng(17);
  const std::vector<double> specials = {kNaN, kInf, -kInf, -0.0, 0.0, 1e30, -1e30, 3e38};
  for (const bool simd : {true, false}) {
    cpu::set_simd_enabled(simd);
    for (DataType zt : {DataType::kUInt8, DataType::kInt8, DataType::kInt16}) {
      const double lo = zt == DataType::kUInt8 ? 0 : zt == DataType::kInt8 ? -128 : -32768;
      const double hi = zt == DataType::kUInt8 ? 255 : zt == DataType::kInt8 ? 127 : 32767;
      for (const int channels : {1, 3}) {
        const int inner = 37;
        std::vector<double> sv(static_cast<std::size_t>(channels));
        std::vector<double> zv(static_cast<std::size_t>(channels));
        for (int c = 0; c < channels; ++c) {
          sv[static_cast<std::size_t>(c)] =
              c == 0 ? 0.5 : static_cast<float>(0.01 + (rng() % 1000) / 100.0);
          zv[static_cast<std::size_t>(c)] = lo + static_cast<double>(rng() % 256);
        }
        std::vector<double> xv(static_cast<std::size_t>(2 * channels * inner));
        for (std::size_t i = 0; i < xv.size(); ++i) {
          const std::size_t c = i / inner % static_cast<std::size_t>(channels);
          const unsigned kind = rng() % 4;
          if (kind == 0) {
            xv[i] = specials[rng() % specials.size()];
          } else if (kind == 1) {  // a tie: (k + 0.5) * s, exact in float32 for these scales
            xv[i] = static_cast<float>((static_cast<double>(rng() % 600) - 300.5) * sv[c]);
          } else {
            xv[i] = static_cast<float>((static_cast<double>(rng() % 200000) - 100000) / 7.0);
          }
        }
        // Per tensor: one scale (channel 0's); per axis: axis 1 of [2, channels, inner].
        const bool per_tensor = channels == 1;
        const TensorBuffer x = per_tensor ? make({2 * inner}, DataType::kFloat32, xv)
                                          : make({2, channels, inner}, DataType::kFloat32, xv);
        QuantizeLinearOptions options;
        options.axis = 1;
        const TensorBuffer q =
            per_tensor ? quantize_linear(x, make({}, DataType::kFloat32, sv), make({}, zt, zv))
                       : quantize_linear(x, make({channels}, DataType::kFloat32, sv),
                                         make({channels}, zt, zv), options);
        const std::vector<double> got = values(q);
        const std::vector<double> xr = values(x);
        for (std::size_t i = 0; i < xr.size(); ++i) {
          const std::size_t c = i / inner % static_cast<std::size_t>(channels);
          const double div =
              static_cast<float>(static_cast<float>(xr[i]) / static_cast<float>(sv[c]));
          const double r = std::isnan(div) ? zv[c] : std::nearbyint(div) + zv[c];
          const double expected = std::min(hi, std::max(lo, r));
          ASSERT_EQ(got[i], expected)
              << (simd ? "simd " : "portable ") << to_string(zt) << " channels " << channels
              << " element " << i << " x " << xr[i];
        }
      }
    }
  }
  cpu::set_simd_enabled(true);
}

TEST(QuantizeLinearCUDA, ResultOnDevice) {
  TENSORBUF_SKIP_WITHOUT_CUDA(Device::cuda(0));
  QuantizeLinearOptions options;
  options.device = Device::cuda(0);
  const TensorBuffer y =
      quantize_linear(make({3}, DataType::kFloat32, {0, 2, 3}), make({}, DataType::kFloat32, {2}),
                      make({}, DataType::kUInt8, {128}), options);
  EXPECT_TRUE(y.is_valid_on(Device::cuda(0)));
  EXPECT_EQ(values(y), (std::vector<double>{128, 129, 130}));
}

}  // namespace
}  // namespace tensorbuf
