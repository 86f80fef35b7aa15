// dequantize_linear's CPU backend (src/cpu/dequantize_linear.cpp): its AVX-512 and portable
// loops, per tensor and per axis (long channel runs, short periods read from tables, short
// runs of long periods), against a loop written here, and against the element-wise functor of
// src/kernels (the form of the former host loop) on larger random inputs split over threads.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/quantize_linear_plan.hpp"
#include "cpu/cpu_features.hpp"
#include "kernels/host_executor.hpp"
#include "kernels/quantize_linear.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

template <class T>
TensorBuffer filled(const Shape& shape, DataType type, const std::vector<T>& v) {
  TensorBuffer b = TensorBuffer::create_fixed_size(shape, type);
  std::copy(v.begin(), v.end(), b.mutable_host<T>());
  return b;
}

struct Case {
  Shape shape;
  int axis;  // per tensor when per_tensor
  bool per_tensor;
};

// Odd sizes (no multiple of 16 or 64): per tensor; axis 0 / middle (runs of >= 32); the last
// axis and near-last ones (periods 3, 35, 300: tables); short runs of a period whose table
// would be longer than x or too long ([1, 100, 3], [2, 2001, 3]); negative axes.
const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {{1037}, 0, true},        {{3, 7, 61}, 0, true},     {{5, 3, 67}, 0, false},
      {{5, 3, 67}, 1, false},   {{5, 3, 67}, -2, false},   {{5, 3, 67}, 2, false},
      {{77, 3}, 1, false},      {{77, 3}, -1, false},      {{9, 5, 7}, 1, false},
      {{9, 5, 7}, -3, false},   {{7, 100, 3}, 1, false},   {{1, 1}, -1, false},
      {{257}, 0, false},        {{2, 33, 17}, -1, false},  {{1, 100, 3}, 1, false},
      {{2, 2001, 3}, -2, false},
  };
  return all;
}

template <class T>
void check_against_loop(DataType type, bool simd) {
  cpu::set_simd_enabled(simd);
  std::mt19937 rng(11);
  constexpr bool wide = sizeof(T) > 1;
  for (const Case& k : cases()) {
    const std::int64_t n = k.shape.num_elements();
    const int rank = k.shape.rank();
    const int a = k.axis < 0 ? k.axis + rank : k.axis;
    const std::int64_t channels = k.per_tensor ? 1 : k.shape[a];
    std::int64_t inner = 1;
    if (!k.per_tensor) {
      for (int d = a + 1; d < rank; ++d) inner *= k.shape[d];
    }
    // 8-bit: x[i] = 37 i (odd stride) shifted by one every 256 elements, so every 256
    // consecutive elements hold all 256 byte values, at changing lanes.
    std::vector<T> xv(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      if constexpr (wide) {
        const auto r = static_cast<std::int64_t>(rng() % 65535) - 32767;
        xv[static_cast<std::size_t>(i)] =
            static_cast<T>(sizeof(T) == 4 ? r * 65537 + static_cast<std::int64_t>(rng() % 7) : r);
      } else {
        xv[static_cast<std::size_t>(i)] = static_cast<T>(static_cast<std::uint8_t>(i * 37 + i / 256));
      }
    }
    std::vector<float> sv(static_cast<std::size_t>(channels));
    std::vector<T> zv(static_cast<std::size_t>(channels));
    for (std::size_t c = 0; c < sv.size(); ++c) {
      sv[c] = c % 3 == 0 ? 1.0f / 3.0f : static_cast<float>(0.001 + (rng() % 100000) / 997.0);
      zv[c] = sizeof(T) == 4 ? T{0} : static_cast<T>(rng());
    }
    const TensorBuffer x = filled(k.shape, type, xv);
    const Shape ps = k.per_tensor ? Shape{} : Shape{channels};
    QuantizeLinearOptions options;
    options.axis = k.axis;
    const TensorBuffer y = dequantize_linear(x, filled(ps, DataType::kFloat32, sv),
                                             filled(ps, type, zv), options);
    ASSERT_EQ(y.data_type(), DataType::kFloat32);
    ASSERT_EQ(y.shape(), k.shape);
    const float* got = y.host<float>();
    for (std::int64_t i = 0; i < n; ++i) {
      const auto c = static_cast<std::size_t>(i / inner % channels);
      // float32 operations as doubles rounded once each: float32(x), x - z (exact in double
      // for these magnitudes), the product of two floats (exact in double).
      const float xf = static_cast<float>(xv[static_cast<std::size_t>(i)]);
      const auto d = static_cast<float>(static_cast<double>(xf) - static_cast<double>(zv[c]));
      const auto expected = static_cast<float>(static_cast<double>(d) * static_cast<double>(sv[c]));
      ASSERT_EQ(got[i], expected) << to_string(type) << (simd ? " simd" : " portable") << " shape "
                                  << k.shape.to_string() << " axis " << k.axis << " element " << i;
    }
  }
  cpu::set_simd_enabled(true);
}

TEST(DequantizeLinearCpu, AgainstLoopEveryDtypeAndLayout) {
  for (const bool simd : {true, false}) {
    check_against_loop<std::uint8_t>(DataType::kUInt8, simd);
    check_against_loop<std::int8_t>(DataType::kInt8, simd);
    check_against_loop<std::int16_t>(DataType::kInt16, simd);
    check_against_loop<std::int32_t>(DataType::kInt32, simd);
  }
}

// Larger random inputs (several threads' chunks) against the element-wise functor, bit for bit.
TEST(DequantizeLinearCpu, EqualsElementwiseFunctorOnLargeInputs) {
  std::mt19937 rng(3);
  // Odd sizes, so the chunks start inside a channel run and inside a table's period.
  const std::vector<Case> large = {{{1081, 193, 3}, 0, true},  {{1081, 193, 3}, -1, false},
                                   {{1081, 193, 3}, 0, false}, {{3, 1081, 193}, 0, false},
                                   {{9001, 7, 11}, 1, false},  {{9001, 5, 7}, -2, false},
                                   {{301, 70, 31}, -2, false}, {{41, 2001, 3}, 1, false}};
  for (const bool simd : {true, false}) {
    cpu::set_simd_enabled(simd);
    for (DataType type : {DataType::kUInt8, DataType::kInt8}) {
      for (const Case& k : large) {
        const std::int64_t n = k.shape.num_elements();
        std::vector<std::uint8_t> xv(static_cast<std::size_t>(n));
        for (auto& v : xv) v = static_cast<std::uint8_t>(rng());
        TensorBuffer x = TensorBuffer::create_fixed_size(k.shape, type);
        std::copy(xv.begin(), xv.end(), static_cast<std::uint8_t*>(x.mutable_host_bytes()));
        const int a = k.axis < 0 ? k.axis + k.shape.rank() : k.axis;
        const std::int64_t channels = k.per_tensor ? 1 : k.shape[a];
        std::vector<float> sv(static_cast<std::size_t>(channels));
        std::vector<std::uint8_t> zv(static_cast<std::size_t>(channels));
        for (std::size_t c = 0; c < sv.size(); ++c) {
          sv[c] = static_cast<float>(1e-3 + (rng() % 1000000) / 7919.0);
          zv[c] = static_cast<std::uint8_t>(rng());
        }
        const Shape ps = k.per_tensor ? Shape{} : Shape{channels};
        TensorBuffer z = TensorBuffer::create_fixed_size(ps, type);
        std::copy(zv.begin(), zv.end(), static_cast<std::uint8_t*>(z.mutable_host_bytes()));
        const TensorBuffer s = filled(ps, DataType::kFloat32, sv);
        QuantizeLinearOptions options;
        options.axis = k.axis;
        const TensorBuffer y = dequantize_linear(x, s, z, options);
        const core::LinearPlan plan = core::plan_dequantize_linear(x, s, z, options);
        std::vector<float> expected(static_cast<std::size_t>(n));
        kernels::HostExecutor ex;
        kernels::run_dequantize_linear(ex, plan, {x.host_bytes(), expected.data()});
        const float* got = y.host<float>();
        for (std::int64_t i = 0; i < n; ++i) {
          ASSERT_EQ(got[i], expected[static_cast<std::size_t>(i)])
              << to_string(type) << (simd ? " simd" : " portable") << " shape "
              << k.shape.to_string() << " axis " << k.axis << " element " << i;
        }
      }
    }
  }
  cpu::set_simd_enabled(true);
}

}  // namespace
}  // namespace tensorbuf
