// compress (ONNX Compress, spec/indexing.md 5) on every device: ONNX's own examples (the
// operator's documentation and node tests test_compress_0/1/default_axis/negative_axis), a
// condition shorter and longer than the axis, and its errors.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "support/devices.hpp"
#include "support/error_text.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::invalid_argument_text;
using testing::mask_update::make;
using testing::mask_update::make_f32;
using testing::mask_update::make_mask;
using testing::mask_update::values;

class Compress : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(GetParam()); }
  CompressOptions options(std::optional<int> axis) const { return {GetParam(), axis, {}}; }
};

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(Compress);

const std::vector<double> kInput = {1, 2, 3, 4, 5, 6};  // ONNX's [[1, 2], [3, 4], [5, 6]]

TEST_P(Compress, OnnxAxis0) {
  const TensorBuffer out = compress(make_f32({3, 2}, kInput), make_mask({3}, {0, 1, 1}), options(0));
  EXPECT_EQ(out.shape(), (Shape{2, 2}));
  EXPECT_EQ(values(out), (std::vector<double>{3, 4, 5, 6}));
}

TEST_P(Compress, OnnxAxis1) {
  const TensorBuffer out = compress(make_f32({3, 2}, kInput), make_mask({2}, {0, 1}), options(1));
  EXPECT_EQ(out.shape(), (Shape{3, 1}));
  EXPECT_EQ(values(out), (std::vector<double>{2, 4, 6}));
}

TEST_P(Compress, OnnxDefaultAxisFlattens) {
  const TensorBuffer out =
      compress(make_f32({3, 2}, kInput), make_mask({5}, {0, 1, 0, 0, 1}), options(std::nullopt));
  EXPECT_EQ(out.shape(), (Shape{2}));
  EXPECT_EQ(values(out), (std::vector<double>{2, 5}));
}

TEST_P(Compress, OnnxNegativeAxis) {
  const TensorBuffer out = compress(make_f32({3, 2}, kInput), make_mask({2}, {0, 1}), options(-1));
  EXPECT_EQ(out.shape(), (Shape{3, 1}));
  EXPECT_EQ(values(out), (std::vector<double>{2, 4, 6}));
}

TEST_P(Compress, ShorterConditionIsFalsePastItsEnd) {
  const TensorBuffer out = compress(make_f32({3, 2}, kInput), make_mask({2}, {1, 1}), options(0));
  EXPECT_EQ(out.shape(), (Shape{2, 2}));
  EXPECT_EQ(values(out), (std::vector<double>{1, 2, 3, 4}));
  const TensorBuffer empty = compress(make_f32({3, 2}, kInput), make_mask({0}, {}), options(1));
  EXPECT_EQ(empty.shape(), (Shape{3, 0}));
}

TEST_P(Compress, LongerConditionMayOnlyBeFalsePastTheAxis) {
  const TensorBuffer out =
      compress(make_f32({3, 2}, kInput), make_mask({4}, {1, 0, 1, 0}), options(0));
  EXPECT_EQ(values(out), (std::vector<double>{1, 2, 5, 6}));
  EXPECT_EQ(invalid_argument_text([&] {
              compress(make_f32({3, 2}, kInput), make_mask({4}, {1, 0, 0, 1}), options(0));
            }),
            "Condition entry 3 is true, but the axis has only 3 entries (condition of length 4).");
}

TEST_P(Compress, Errors) {
  const TensorBuffer input = make_f32({3, 2}, kInput);
  EXPECT_EQ(invalid_argument_text(
                [&] { compress(input, make(DataType::kInt32, {3}, {0, 1, 1}), options(0)); }),
            "Condition must be of dtype bool, got int32.");
  EXPECT_EQ(invalid_argument_text(
                [&] { compress(input, make_mask({3, 1}, {0, 1, 1}), options(0)); }),
            "Condition must be 1-D, got shape [3,1].");
  EXPECT_EQ(invalid_argument_text([&] { compress(input, make_mask({3}, {0, 1, 1}), options(2)); }),
            "Axis 2 is out of range for an input of rank 2 (need -2 <= axis < 2).");
  EXPECT_EQ(invalid_argument_text([&] { compress(input, make_mask({3}, {0, 1, 1}), options(-3)); }),
            "Axis -3 is out of range for an input of rank 2 (need -2 <= axis < 2).");
  EXPECT_EQ(values(input), kInput);
}

TEST_P(Compress, IntegerAndBoolInputs) {
  const TensorBuffer out = compress(make(DataType::kInt64, {4}, {10, 20, 30, 40}),
                                    make_mask({4}, {1, 0, 0, 1}), options(std::nullopt));
  EXPECT_EQ(out.data_type(), DataType::kInt64);
  EXPECT_EQ(values(out), (std::vector<double>{10, 40}));
  const TensorBuffer flags = compress(make(DataType::kBool, {3}, {1, 0, 1}),
                                      make_mask({3}, {0, 1, 1}), options(0));
  EXPECT_EQ(values(flags), (std::vector<double>{0, 1}));
}

}  // namespace
}  // namespace tensorbuf
