// tb_processor_*: chains through the C ABI against values written here (float32 arithmetic,
// float16 bit patterns) and bit-equal to the single C ops run one after another; the step array
// (its stride, kinds, copied means), output dtypes and step counts, run_into's rules, and the
// C++ errors as statuses with exact messages and *out untouched. (NULL, stale, forged and
// wrong-type handles: the table-driven tests of test_errors.cpp and test_handles.cpp.)
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "c_api/fixture.hpp"

namespace tensorbuf::testing {
namespace {

using F = std::vector<float>;
using U8 = std::vector<std::uint8_t>;
using U16 = std::vector<std::uint16_t>;

tb_process_step normalize_step(float mean, float stddev) {
  tb_process_step s{};
  s.kind = TB_STEP_NORMALIZE;
  s.mean = mean;
  s.stddev = stddev;
  return s;
}

tb_process_step channels_step(const float* means, const float* stddevs, std::int64_t channels) {
  tb_process_step s{};
  s.kind = TB_STEP_NORMALIZE_CHANNELS;
  s.means = means;
  s.stddevs = stddevs;
  s.channels = channels;
  return s;
}

tb_process_step quantize_step(tb_step_kind kind, float zero_point, float scale) {
  tb_process_step s{};
  s.kind = kind;
  s.zero_point = zero_point;
  s.scale = scale;
  return s;
}

tb_process_step cast_step(tb_dtype dtype) {
  tb_process_step s{};
  s.kind = TB_STEP_CAST;
  s.dtype = dtype;
  return s;
}

tb_dtype dtype_of(const tb_buffer* b) {
  tb_dtype type = TB_BOOL;
  EXPECT_EQ(tb_buffer_dtype(b, &type), TB_OK) << tb_last_error();
  return type;
}

std::vector<std::int64_t> shape_of(const tb_buffer* b) {
  int ndim = -1;
  std::int64_t dims[TB_MAX_NDIM] = {};
  EXPECT_EQ(tb_buffer_shape(b, &ndim, dims), TB_OK) << tb_last_error();
  return std::vector<std::int64_t>(dims, dims + ndim);
}

tb_buffer* const kSentinel = reinterpret_cast<tb_buffer*>(std::uintptr_t{0x5e11});
tb_processor* const kProcessorSentinel = reinterpret_cast<tb_processor*>(std::uintptr_t{0x5e11});

// An image's chain: uint8 -> per-channel normalize -> float16, with results exact in float16.
TEST(CApiProcessor, Uint8ImageNormalizedPerChannelToFloat16) {
  Handle x{make_buffer<std::uint8_t>(TB_UINT8, {2, 3}, U8{0, 64, 255, 10, 20, 30})};
  const float means[3] = {1, 2, 3};
  const float stddevs[3] = {2, 4, 8};
  ProcessorHandle p{make_processor({channels_step(means, stddevs, 3), cast_step(TB_FLOAT16)})};
  Handle y;
  ASSERT_EQ(tb_processor_run(p.get, x.get, nullptr, &y.get), TB_OK) << tb_last_error();
  EXPECT_EQ(dtype_of(y.get), TB_FLOAT16);
  EXPECT_EQ(shape_of(y.get), (std::vector<std::int64_t>{2, 3}));
  // (0-1)/2, (64-2)/4, (255-3)/8, (10-1)/2, (20-2)/4, (30-3)/8 = -0.5, 15.5, 31.5, 4.5, 4.5,
  // 3.375: float16 sign | exponent + 15 | 10 mantissa bits.
  EXPECT_EQ(contents<std::uint16_t>(y.get, 6),
            (U16{0xb800, 0x4bc0, 0x4fe0, 0x4480, 0x4480, 0x42c0}));
}

// ImageNet's means and stddevs on every uint8 value: bit-equal to tb_normalize_channels then
// tb_cast, and the float32 chain to (float32(x) - mean) / stddev written here.
TEST(CApiProcessor, EqualsTheSingleOpsOneAfterAnother) {
  U8 pixels(256 * 3);
  for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<std::uint8_t>(i / 3);
  Handle x{make_buffer<std::uint8_t>(TB_UINT8, {256, 3}, pixels)};
  const float means[3] = {123.675f, 116.28f, 103.53f};
  const float stddevs[3] = {58.395f, 57.12f, 57.375f};
  for (const tb_dtype target : {TB_FLOAT16, TB_BFLOAT16, TB_INT8, TB_FLOAT64}) {
    SCOPED_TRACE(static_cast<int>(target));
    ProcessorHandle p{make_processor({channels_step(means, stddevs, 3), cast_step(target)})};
    Handle fused;
    ASSERT_EQ(tb_processor_run(p.get, x.get, nullptr, &fused.get), TB_OK) << tb_last_error();
    Handle normalized;
    Handle unfused;
    ASSERT_EQ(tb_normalize_channels(x.get, means, stddevs, 3, nullptr, &normalized.get), TB_OK);
    ASSERT_EQ(tb_cast(normalized.get, target, nullptr, &unfused.get), TB_OK);
    ASSERT_EQ(dtype_of(fused.get), target);
    const std::size_t bytes = target == TB_FLOAT64 ? 8 : target == TB_INT8 ? 1 : 2;
    EXPECT_EQ(contents<std::uint8_t>(fused.get, pixels.size() * bytes),
              contents<std::uint8_t>(unfused.get, pixels.size() * bytes));
  }
  ProcessorHandle p32{make_processor({channels_step(means, stddevs, 3)})};
  Handle y;
  ASSERT_EQ(tb_processor_run(p32.get, x.get, nullptr, &y.get), TB_OK) << tb_last_error();
  F expected(pixels.size());
  for (std::size_t i = 0; i < pixels.size(); ++i) {
    expected[i] = (static_cast<float>(pixels[i]) - means[i % 3]) / stddevs[i % 3];
  }
  EXPECT_EQ(contents<float>(y.get, pixels.size()), expected);
}

// A model's int8 output dequantized, and a float32 input quantized to uint8 (saturating cast).
TEST(CApiProcessor, DequantizeAndQuantizeChains) {
  Handle q{make_buffer<std::int8_t>(TB_INT8, {5}, std::vector<std::int8_t>{-128, -3, 0, 17, 127})};
  ProcessorHandle post{make_processor({quantize_step(TB_STEP_DEQUANTIZE, -3.0f, 0.05f)})};
  Handle scores;
  ASSERT_EQ(tb_processor_run(post.get, q.get, nullptr, &scores.get), TB_OK) << tb_last_error();
  const float stddev = 1.0f / 0.05f;  // DequantizeOp: normalize(q, zero_point, 1 / scale)
  EXPECT_EQ(contents<float>(scores.get, 5),
            (F{(-128 + 3.f) / stddev, (-3 + 3.f) / stddev, (0 + 3.f) / stddev,
               (17 + 3.f) / stddev, (127 + 3.f) / stddev}));
  Handle single;
  ASSERT_EQ(tb_dequantize(q.get, -3.0f, 0.05f, nullptr, &single.get), TB_OK);
  EXPECT_EQ(contents<float>(scores.get, 5), contents<float>(single.get, 5));

  // quantize(128, 1/128): (x - (-128 * 0.0078125)) / 0.0078125 = (x + 1) * 128, then uint8.
  Handle x{make_buffer<float>(TB_FLOAT32, {5}, F{-1, 0, 0.5f, 1, 2})};
  ProcessorHandle pre{
      make_processor({quantize_step(TB_STEP_QUANTIZE, 128.0f, 0.0078125f), cast_step(TB_UINT8)})};
  Handle u;
  ASSERT_EQ(tb_processor_run(pre.get, x.get, nullptr, &u.get), TB_OK) << tb_last_error();
  EXPECT_EQ(contents<std::uint8_t>(u.get, 5), (U8{0, 128, 192, 255, 255}));
  tb_dtype type = TB_BOOL;
  ASSERT_EQ(tb_processor_output_dtype(pre.get, TB_FLOAT32, &type), TB_OK);
  EXPECT_EQ(type, TB_UINT8);
}

TEST(CApiProcessor, RunIntoWritesTheCallersBuffer) {
  Handle x{make_buffer<std::uint8_t>(TB_UINT8, {2, 3}, U8{0, 64, 255, 10, 20, 30})};
  ProcessorHandle p{make_processor({normalize_step(127.5f, 127.5f)})};
  Handle out{make_buffer<float>(TB_FLOAT32, {2, 3}, F(6, 7.0f))};
  const tb_device cpu{0, 0};
  const tb_process_options options{sizeof(tb_process_options), nullptr, &cpu};
  ASSERT_EQ(tb_processor_run_into(p.get, x.get, out.get, &options), TB_OK) << tb_last_error();
  EXPECT_EQ(contents<float>(out.get, 6),
            (F{(0 - 127.5f) / 127.5f, (64 - 127.5f) / 127.5f, (255 - 127.5f) / 127.5f,
               (10 - 127.5f) / 127.5f, (20 - 127.5f) / 127.5f, (30 - 127.5f) / 127.5f}));
  // Wrong dtype, wrong shape, a bad options size: refused, out unchanged.
  Handle half{make_buffer<std::uint16_t>(TB_FLOAT16, {2, 3}, U16(6, 0x3c00))};
  EXPECT_EQ(tb_processor_run_into(p.get, x.get, half.get, nullptr), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_processor_run_into: Processor::run_into: out has dtype float16; the chain gives "
            "float32 for a uint8 input");
  EXPECT_EQ(contents<std::uint16_t>(half.get, 6), U16(6, 0x3c00));
  Handle wide{make_buffer<float>(TB_FLOAT32, {3, 2}, F(6, 7.0f))};
  EXPECT_EQ(tb_processor_run_into(p.get, x.get, wide.get, nullptr), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_processor_run_into: Processor::run_into: out has shape [3,2]; x has shape [2,3]");
  EXPECT_EQ(contents<float>(wide.get, 6), F(6, 7.0f));
  const tb_process_options short_options{sizeof(tb_process_options) - 1, nullptr, &cpu};
  EXPECT_EQ(tb_processor_run_into(p.get, x.get, wide.get, &short_options), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_processor_run_into: options->struct_size is 23, expected at least 24");
  // In place: out is x (float32 -> float32).
  Handle f{make_buffer<float>(TB_FLOAT32, {4}, F{1, 3, 5, 7})};
  ProcessorHandle half_of{make_processor({normalize_step(1.0f, 2.0f)})};
  ASSERT_EQ(tb_processor_run_into(half_of.get, f.get, f.get, nullptr), TB_OK) << tb_last_error();
  EXPECT_EQ(contents<float>(f.get, 4), (F{0, 1, 2, 3}));
}

TEST(CApiProcessor, OutputDtypeStepCountAndIdentities) {
  const float means[3] = {0, 0, 0};
  const float ones[3] = {1, 1, 1};
  // Identity steps count as steps but drop out of the run: x itself comes back.
  ProcessorHandle identity{
      make_processor({normalize_step(0.0f, 1.0f), channels_step(means, ones, 3)})};
  std::int64_t count = -1;
  ASSERT_EQ(tb_processor_step_count(identity.get, &count), TB_OK);
  EXPECT_EQ(count, 2);
  tb_dtype type = TB_BOOL;
  ASSERT_EQ(tb_processor_output_dtype(identity.get, TB_INT16, &type), TB_OK);
  EXPECT_EQ(type, TB_INT16);
  Handle x{make_buffer<std::int16_t>(TB_INT16, {3}, std::vector<std::int16_t>{-4, 0, 9})};
  Handle same;
  ASSERT_EQ(tb_processor_run(identity.get, x.get, nullptr, &same.get), TB_OK);
  EXPECT_EQ(dtype_of(same.get), TB_INT16);
  EXPECT_EQ(contents<std::int16_t>(same.get, 3), (std::vector<std::int16_t>{-4, 0, 9}));
  // The empty chain (steps may be NULL): the same.
  tb_processor* empty = nullptr;
  ASSERT_EQ(tb_processor_create(nullptr, 0, &empty), TB_OK) << tb_last_error();
  ProcessorHandle empty_handle{empty};
  ASSERT_EQ(tb_processor_step_count(empty, &count), TB_OK);
  EXPECT_EQ(count, 0);
  ASSERT_EQ(tb_processor_output_dtype(empty, TB_BFLOAT16, &type), TB_OK);
  EXPECT_EQ(type, TB_BFLOAT16);
  // A chain's dtype: normalize gives float32, a cast its target.
  ProcessorHandle chain{make_processor({cast_step(TB_INT32), normalize_step(1.0f, 2.0f),
                                        cast_step(TB_FLOAT64)})};
  ASSERT_EQ(tb_processor_output_dtype(chain.get, TB_UINT8, &type), TB_OK);
  EXPECT_EQ(type, TB_FLOAT64);
  ASSERT_EQ(tb_processor_step_count(chain.get, &count), TB_OK);
  EXPECT_EQ(count, 3);
  type = TB_BOOL;
  EXPECT_EQ(tb_processor_output_dtype(chain.get, static_cast<tb_dtype>(10), &type),
            TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()), "tb_processor_output_dtype: unknown tb_dtype 10");
  EXPECT_EQ(type, TB_BOOL);
}

// The steps array's stride is its elements' struct_size: a later header's larger struct works,
// and the means are copied at create.
TEST(CApiProcessor, StepArrayStrideAndCopiedMeans) {
  struct Grown {
    tb_process_step step;
    double appended;  // a field a later header might add
  };
  float means[2] = {1, 2};
  float stddevs[2] = {2, 4};
  Grown steps[2] = {{channels_step(means, stddevs, 2), 9.0}, {cast_step(TB_INT32), 9.0}};
  for (Grown& g : steps) g.step.struct_size = sizeof(Grown);
  tb_processor* p = nullptr;
  ASSERT_EQ(tb_processor_create(&steps[0].step, 2, &p), TB_OK) << tb_last_error();
  ProcessorHandle handle{p};
  means[0] = 100;  // after create: not seen
  Handle x{make_buffer<float>(TB_FLOAT32, {2, 2}, F{5, 10, 9, 14})};
  Handle y;
  ASSERT_EQ(tb_processor_run(p, x.get, nullptr, &y.get), TB_OK) << tb_last_error();
  // (5-1)/2, (10-2)/4, (9-1)/2, (14-2)/4 as int32.
  EXPECT_EQ(contents<std::int32_t>(y.get, 4), (std::vector<std::int32_t>{2, 2, 4, 3}));
}

struct CreateError {
  std::vector<tb_process_step> steps;
  std::string message;
};

TEST(CApiProcessor, CreateErrors) {
  static const float means[3] = {1, 2, 3};
  static const float stddevs[3] = {1, 0, 1};
  static const float twos[2] = {2, 2};
  tb_process_step unknown_kind = normalize_step(1, 2);
  unknown_kind.kind = static_cast<tb_step_kind>(9);
  const CreateError cases[] = {
      {{normalize_step(1, 2), normalize_step(1, 0)},
       "tb_processor_create: steps[1]: normalize: stddev cannot be zero"},
      {{channels_step(means, stddevs, 3)},
       "tb_processor_create: steps[0]: normalize: stddev cannot be zero (channel 1)"},
      {{channels_step(means, stddevs, 0)},
       "tb_processor_create: steps[0]: normalize: means and stddevs are empty"},
      {{channels_step(means, stddevs, -2)}, "tb_processor_create: steps[0]: channels is negative: -2"},
      {{cast_step(TB_INT8), channels_step(nullptr, twos, 2)},
       "tb_processor_create: steps[1]: means is NULL"},
      {{channels_step(twos, nullptr, 2)}, "tb_processor_create: steps[0]: stddevs is NULL"},
      {{cast_step(static_cast<tb_dtype>(10))}, "tb_processor_create: steps[0]: unknown tb_dtype 10"},
      {{unknown_kind}, "tb_processor_create: steps[0]: unknown tb_step_kind 9"},
      {{channels_step(means, means, 3), cast_step(TB_FLOAT32), channels_step(twos, twos, 2)},
       "tb_processor_create: Processor: step 2 (normalize) has 2 channels and step 0 "
       "(normalize) 3: no last axis fits both"},
  };
  for (const CreateError& c : cases) {
    SCOPED_TRACE(c.message);
    std::vector<tb_process_step> steps = c.steps;
    for (tb_process_step& s : steps) s.struct_size = sizeof(tb_process_step);
    tb_processor* out = kProcessorSentinel;
    EXPECT_EQ(tb_processor_create(steps.data(), static_cast<std::int64_t>(steps.size()), &out),
              TB_INVALID_ARGUMENT);
    EXPECT_EQ(std::string(tb_last_error()), c.message);
    EXPECT_EQ(out, kProcessorSentinel);
  }
  // The array itself: a negative count, a step's struct_size.
  tb_process_step steps[2] = {normalize_step(1, 2), normalize_step(3, 4)};
  steps[0].struct_size = steps[1].struct_size = sizeof(tb_process_step);
  tb_processor* out = kProcessorSentinel;
  EXPECT_EQ(tb_processor_create(steps, -1, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()), "tb_processor_create: count is negative: -1");
  steps[1].struct_size = 8;
  EXPECT_EQ(tb_processor_create(steps, 2, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_processor_create: steps[1].struct_size is 8; steps[0]'s is 64 (one array: every "
            "step has the same struct_size)");
  steps[0].struct_size = 8;
  EXPECT_EQ(tb_processor_create(steps, 2, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_processor_create: steps->struct_size is 8, expected at least 64");
  EXPECT_EQ(out, kProcessorSentinel);
}

TEST(CApiProcessor, RunErrors) {
  const float means[3] = {1, 2, 3};
  const float stddevs[3] = {1, 2, 4};
  ProcessorHandle p{make_processor({cast_step(TB_FLOAT32), channels_step(means, stddevs, 3)})};
  Handle x{make_buffer<float>(TB_FLOAT32, {2, 4}, F(8, 1.0f))};
  tb_buffer* out = kSentinel;
  EXPECT_EQ(tb_processor_run(p.get, x.get, nullptr, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_processor_run: Processor step 1 (normalize): 3 means (stddevs) for a last axis "
            "of shape [2,4]: the number of channels must equal the size of the last axis");
  EXPECT_EQ(out, kSentinel);
  const tb_device bad{7, 0};
  const tb_process_options options{sizeof(tb_process_options), nullptr, &bad};
  Handle ok{make_buffer<float>(TB_FLOAT32, {3}, F(3, 1.0f))};
  EXPECT_EQ(tb_processor_run(p.get, ok.get, &options, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(out, kSentinel);
}

}  // namespace
}  // namespace tensorbuf::testing
