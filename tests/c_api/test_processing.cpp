// tb_normalize, tb_normalize_channels, tb_quantize, tb_dequantize, tb_cast, tb_quantize_linear,
// tb_dequantize_linear: values through the C ABI against float32 arithmetic written here, NULL
// options as the defaults, option fields, and the C++ ops' errors as statuses with *out
// untouched. (NULL and stale handles: the table-driven tests of test_errors.cpp.)
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "c_api/fixture.hpp"

namespace tensorbuf::testing {
namespace {

using F = std::vector<float>;

TEST(CApiProcessing, NormalizeScalarAndPerChannel) {
  Handle x{make_buffer<std::uint8_t>(TB_UINT8, {2, 3}, {0, 64, 255, 10, 20, 30})};
  Handle y;
  ASSERT_EQ(tb_normalize(x.get, 127.5f, 127.5f, nullptr, &y.get), TB_OK) << tb_last_error();
  EXPECT_EQ(contents<float>(y.get, 6),
            (F{(0 - 127.5f) / 127.5f, (64 - 127.5f) / 127.5f, (255 - 127.5f) / 127.5f,
               (10 - 127.5f) / 127.5f, (20 - 127.5f) / 127.5f, (30 - 127.5f) / 127.5f}));
  const float means[3] = {1, 2, 3};
  const float stddevs[3] = {2, 4, 8};
  const tb_device cpu{0, 0};
  const tb_process_options options{sizeof(tb_process_options), nullptr, &cpu};
  Handle c;
  ASSERT_EQ(tb_normalize_channels(x.get, means, stddevs, 3, &options, &c.get), TB_OK)
      << tb_last_error();
  EXPECT_EQ(contents<float>(c.get, 6), (F{(0 - 1.f) / 2, (64 - 2.f) / 4, (255 - 3.f) / 8,
                                          (10 - 1.f) / 2, (20 - 2.f) / 4, (30 - 3.f) / 8}));
  // Errors: a zero stddev, a channel count that is not the last axis; *out untouched.
  tb_buffer* const sentinel = reinterpret_cast<tb_buffer*>(std::uintptr_t{0x5e11});
  tb_buffer* out = sentinel;
  EXPECT_EQ(tb_normalize(x.get, 1.0f, 0.0f, nullptr, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()), "tb_normalize: normalize: stddev cannot be zero");
  EXPECT_EQ(tb_normalize_channels(x.get, means, stddevs, 2, nullptr, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(tb_normalize_channels(x.get, means, stddevs, -1, nullptr, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(out, sentinel);
  // The identity: a handle sharing x's memory, x's dtype.
  Handle same;
  ASSERT_EQ(tb_normalize(x.get, 0.0f, 1.0f, nullptr, &same.get), TB_OK);
  tb_dtype dtype = TB_FLOAT32;
  ASSERT_EQ(tb_buffer_dtype(same.get, &dtype), TB_OK);
  EXPECT_EQ(dtype, TB_UINT8);
}

TEST(CApiProcessing, QuantizeDequantizeAndCast) {
  Handle x{make_buffer<float>(TB_FLOAT32, {4}, F{0, 1.5f, -3, 300})};
  Handle q;
  ASSERT_EQ(tb_quantize(x.get, 2.0f, 0.5f, nullptr, &q.get), TB_OK) << tb_last_error();
  // normalize(x, -2 * 0.5, 0.5)
  EXPECT_EQ(contents<float>(q.get, 4), (F{(0 + 1.f) / 0.5f, (1.5f + 1.f) / 0.5f,
                                          (-3 + 1.f) / 0.5f, (300 + 1.f) / 0.5f}));
  Handle d;
  ASSERT_EQ(tb_dequantize(x.get, 2.0f, 0.5f, nullptr, &d.get), TB_OK) << tb_last_error();
  // normalize(x, 2, 1 / 0.5)
  EXPECT_EQ(contents<float>(d.get, 4), (F{(0 - 2.f) / 2, (1.5f - 2.f) / 2, (-3 - 2.f) / 2,
                                          (300 - 2.f) / 2}));
  Handle c;
  ASSERT_EQ(tb_cast(x.get, TB_INT8, nullptr, &c.get), TB_OK) << tb_last_error();
  EXPECT_EQ(contents<std::int8_t>(c.get, 4), (std::vector<std::int8_t>{0, 1, -3, 127}));
}

TEST(CApiProcessing, QuantizeLinearPerTensorAndPerAxis) {
  Handle x{make_buffer<float>(TB_FLOAT32, {2, 3}, F{0, 2.5f, -7, 100, 3.5f, -1})};
  Handle scale{make_buffer<float>(TB_FLOAT32, {}, F{1})};
  Handle zero{make_buffer<std::int8_t>(TB_INT8, {}, {10})};
  Handle q;
  ASSERT_EQ(tb_quantize_linear(x.get, scale.get, zero.get, nullptr, &q.get), TB_OK)
      << tb_last_error();
  // round half to even, + 10, saturated to int8.
  EXPECT_EQ(contents<std::int8_t>(q.get, 6), (std::vector<std::int8_t>{10, 12, 3, 110, 14, 9}));
  Handle back;
  ASSERT_EQ(tb_dequantize_linear(q.get, scale.get, zero.get, nullptr, &back.get), TB_OK);
  EXPECT_EQ(contents<float>(back.get, 6), (F{0, 2, -7, 100, 4, -1}));
  // Per axis 0 (two rows), then axis 1 of length 3 refused for a 2-element scale.
  Handle scales{make_buffer<float>(TB_FLOAT32, {2}, F{0.5f, 4})};
  Handle zeros{make_buffer<std::int8_t>(TB_INT8, {2}, {0, -1})};
  const tb_quantize_linear_options axis0{sizeof(tb_quantize_linear_options), 0, nullptr,
                                         nullptr};
  Handle qa;
  ASSERT_EQ(tb_quantize_linear(x.get, scales.get, zeros.get, &axis0, &qa.get), TB_OK)
      << tb_last_error();
  EXPECT_EQ(contents<std::int8_t>(qa.get, 6), (std::vector<std::int8_t>{0, 5, -14, 24, 0, -1}));
  tb_buffer* const sentinel = reinterpret_cast<tb_buffer*>(std::uintptr_t{0x5e11});
  tb_buffer* out = sentinel;
  EXPECT_EQ(tb_quantize_linear(x.get, scales.get, zeros.get, nullptr, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_quantize_linear: quantize_linear: 2 scales for axis 1 of x of shape [2,3]");
  const tb_quantize_linear_options too_small{sizeof(tb_quantize_linear_options) - 1, 0, nullptr,
                                             nullptr};
  EXPECT_EQ(tb_quantize_linear(x.get, scales.get, zeros.get, &too_small, &out),
            TB_INVALID_ARGUMENT);
  EXPECT_EQ(out, sentinel);
}

}  // namespace
}  // namespace tensorbuf::testing
