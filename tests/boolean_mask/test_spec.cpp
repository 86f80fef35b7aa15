// boolean_mask and boolean_mask_into (spec/indexing.md 5) on every device: exact values, the
// mask rules shared with boolean_mask_update (the same texts), and TensorFlow's own
// BooleanMaskTest cases (tensorflow/python/kernel_tests/array_ops/array_ops_test.py), ported:
// its fixed cases with their values, its CheckVersusNumpy shapes against the reference.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "boolean_mask/reference.hpp"
#include "boolean_mask_update/helpers.hpp"
#include "support/devices.hpp"
#include "support/error_text.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::invalid_argument_text;
using testing::mask_update::bytes;
using testing::mask_update::from_bytes;
using testing::mask_update::make;
using testing::mask_update::make_f32;
using testing::mask_update::make_mask;
using testing::mask_update::values;

class BooleanMask : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(GetParam()); }
  BooleanMaskOptions options(int axis = 0) const { return {GetParam(), axis, {}}; }
};

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(BooleanMask);

void expect_masked(const TensorBuffer& out, const Shape& shape, const std::vector<double>& v) {
  EXPECT_EQ(out.shape(), shape);
  EXPECT_EQ(values(out), v);
}

TEST_P(BooleanMask, OneDimensional) {
  expect_masked(boolean_mask(make_f32({4}, {0, 1, 2, 3}), make_mask({4}, {1, 0, 1, 0}), options()),
                Shape{2}, {0, 2});
}

TEST_P(BooleanMask, RowsOfAMatrixAndEveryElementWithA2dMask) {
  const TensorBuffer t = make_f32({3, 2}, {1, 2, 3, 4, 5, 6});
  expect_masked(boolean_mask(t, make_mask({3}, {1, 0, 1}), options()), Shape{2, 2}, {1, 2, 5, 6});
  expect_masked(boolean_mask(t, make_mask({3, 2}, {0, 1, 1, 0, 0, 1}), options()), Shape{3},
                {2, 3, 6});
}

TEST_P(BooleanMask, AxisAndNegativeAxis) {
  const TensorBuffer t = make_f32({2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  const TensorBuffer m = make_mask({3}, {0, 1, 1});
  const std::vector<double> expected = {2, 3, 4, 5, 8, 9, 10, 11};
  expect_masked(boolean_mask(t, m, options(1)), Shape{2, 2, 2}, expected);
  expect_masked(boolean_mask(t, m, options(-2)), Shape{2, 2, 2}, expected);
  expect_masked(boolean_mask(t, make_mask({2}, {1, 0}), options(2)), Shape{2, 3, 1},
                {0, 2, 4, 6, 8, 10});
}

TEST_P(BooleanMask, EveryDtypeMovesItsBytes) {
  for (DataType type : {DataType::kBool, DataType::kUInt8, DataType::kInt8, DataType::kInt16,
                        DataType::kInt32, DataType::kInt64, DataType::kFloat16,
                        DataType::kBFloat16, DataType::kFloat32, DataType::kFloat64}) {
    const TensorBuffer t = make(type, {5}, {1, 0, 1, 1, 0});
    const TensorBuffer out = boolean_mask(t, make_mask({5}, {0, 1, 1, 0, 1}), options());
    EXPECT_EQ(out.data_type(), type);
    expect_masked(out, Shape{3}, {0, 1, 0});
  }
  // NaN payloads and bool bytes other than 1 come out as they went in.
  const std::vector<std::uint8_t> raw = {0x01, 0x00, 0xc0, 0x7f, 0x02, 0x00, 0xc0, 0xff};
  const TensorBuffer nan = from_bytes(DataType::kFloat32, {2}, raw);
  EXPECT_EQ(bytes(boolean_mask(nan, make_mask({2}, {0, 1}), options())),
            std::vector<std::uint8_t>(raw.begin() + 4, raw.end()));
}

TEST_P(BooleanMask, MaskBytesOtherThanOneAreTrue) {
  const TensorBuffer m = from_bytes(DataType::kBool, {4}, {0, 7, 0, 255});
  expect_masked(boolean_mask(make_f32({4}, {1, 2, 3, 4}), m, options()), Shape{2}, {2, 4});
}

TEST_P(BooleanMask, InputsAreNotModified) {
  const TensorBuffer t = make_f32({3}, {1, 2, 3});
  const TensorBuffer m = make_mask({3}, {1, 0, 1});
  (void)boolean_mask(t, m, options());
  EXPECT_EQ(values(t), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(values(m), (std::vector<double>{1, 0, 1}));
}

// TensorFlow's BooleanMaskTest, its fixed cases.
TEST_P(BooleanMask, TfEmptyInput2D) {
  expect_masked(boolean_mask(make_f32({2, 0}, {}), make_mask({2}, {1, 0}), options()),
                Shape{1, 0}, {});
}

TEST_P(BooleanMask, TfEmptyInput1D) {
  expect_masked(boolean_mask(make_f32({0}, {}), make_mask({0}, {}), options()), Shape{0}, {});
}

TEST_P(BooleanMask, TfEmptyOutput) {
  expect_masked(boolean_mask(make_f32({3, 2}, {1, 2, 3, 4, 5, 6}), make_mask({3}, {0, 0, 0}),
                             options()),
                Shape{0, 2}, {});
  expect_masked(boolean_mask(make_f32({2, 2, 3}, std::vector<double>(12, 1)),
                             make_mask({2, 2}, {0, 0, 0, 0}), options()),
                Shape{0, 3}, {});
}

TEST_P(BooleanMask, TfWorksWithDimensionsEqualToNone) {
  expect_masked(boolean_mask(make(DataType::kInt32, {2, 2}, {1, 2, 3, 4}),
                             make_mask({2}, {0, 1}), options()),
                Shape{1, 2}, {3, 4});
}

TEST_P(BooleanMask, TfMaskWithAxisTensor) {
  expect_masked(boolean_mask(make(DataType::kInt32, {3}, {1, 2, 3}), make_mask({3}, {1, 0, 1}),
                             options(0)),
                Shape{2}, {1, 3});
}

TEST_P(BooleanMask, TfMaskHasMoreDimsThanTensorRaises) {
  EXPECT_EQ(invalid_argument_text([&] {
              boolean_mask(make(DataType::kInt32, {4}, {1, 2, 3, 4}),
                           make_mask({2, 2}, {1, 1, 0, 0}), options());
            }),
            "Axis 0 is out of range for a tensor of rank 1 and a mask of rank 2 (need 0 <= axis "
            "and axis + 2 <= 1).");
}

TEST_P(BooleanMask, TfMaskIsScalarRaises) {
  EXPECT_EQ(invalid_argument_text([&] {
              boolean_mask(make(DataType::kInt32, {}, {1}), make_mask({}, {1}), options());
            }),
            "Mask cannot be a scalar.");
}

TEST_P(BooleanMask, TfMaskShapeDifferentThanFirstPartOfTensorShapeRaises) {
  EXPECT_EQ(invalid_argument_text([&] {
              boolean_mask(make(DataType::kInt32, {2, 2}, {1, 2, 3, 4}),
                           make_mask({3}, {1, 1, 1}), options());
            }),
            "Mask shape [3] is not compatible with the required mask shape: [2].");
}

TEST_P(BooleanMask, NonBoolMaskRaises) {
  EXPECT_EQ(invalid_argument_text([&] {
              boolean_mask(make_f32({2}, {1, 2}), make(DataType::kUInt8, {2}, {1, 0}),
                           options());
            }),
            "Mask must be of dtype bool, got uint8.");
}

// TensorFlow's CheckVersusNumpy cases (shapes, mask ranks, axes of its testMaskDim* tests),
// random values and masks, against the reference.
TEST_P(BooleanMask, TfCheckVersusNumpyShapes) {
  struct Case {
    int mask_rank;
    std::vector<std::int64_t> shape;
    int axis;
  };
  std::vector<Case> cases;
  for (auto s : {std::vector<std::int64_t>{1, 1}, {2, 2}, {2, 5}}) {
    cases.push_back({1, s, 1});  // testMaskDim1ArrDim2Axis1
    cases.push_back({1, s, 0});  // testMaskDim1ArrDim2
    cases.push_back({2, s, 0});  // testMaskDim2ArrDim2
  }
  for (std::int64_t n : {1, 2, 3, 10}) cases.push_back({1, {n}, 0});  // testMaskDim1ArrDim1
  for (auto s : {std::vector<std::int64_t>{1, 1, 1}, {1, 2, 2}, {2, 2, 1}}) {
    cases.push_back({2, s, 0});  // testMaskDim2ArrDim3
  }
  std::mt19937_64 rng(20261205);
  for (const Case& c : cases) {
    const std::vector<std::int64_t> mshape(c.shape.begin() + c.axis,
                                           c.shape.begin() + c.axis + c.mask_rank);
    std::int64_t elements = 1, mask_elements = 1;
    for (std::int64_t d : c.shape) elements *= d;
    for (std::int64_t d : mshape) mask_elements *= d;
    std::vector<std::uint8_t> data(static_cast<std::size_t>(elements) * 8), mask;
    for (auto& b : data) b = static_cast<std::uint8_t>(rng());
    for (std::int64_t i = 0; i < mask_elements; ++i) mask.push_back(rng() % 2);
    const auto expected =
        testing::masked::reference(data, c.shape, mask, mshape, 8, c.axis);
    const TensorBuffer out =
        boolean_mask(from_bytes(DataType::kFloat64, Shape(c.shape), data),
                     from_bytes(DataType::kBool, Shape(mshape), mask), options(c.axis));
    EXPECT_EQ(out.shape(), Shape(expected.shape));
    EXPECT_EQ(bytes(out), expected.bytes);
  }
}

// boolean_mask_into: a caller-sized output and a device count.
TEST_P(BooleanMask, IntoWritesTheFirstRowsAndTheCount) {
  const TensorBuffer t = make_f32({4, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  const TensorBuffer m = make_mask({4}, {1, 0, 1, 1});
  TensorBuffer count = make(DataType::kInt64, {1}, {-5});
  // Capacity above n: rows past n keep their values.
  TensorBuffer roomy = make_f32({4, 2}, {-1, -1, -1, -1, -1, -1, -1, -1});
  boolean_mask_into(t, m, roomy, count, options());
  EXPECT_EQ(values(roomy), (std::vector<double>{1, 2, 5, 6, 7, 8, -1, -1}));
  EXPECT_EQ(values(count), (std::vector<double>{3}));
  // Capacity below n: the first rows, and the true count.
  TensorBuffer small = make_f32({2, 2}, {-1, -1, -1, -1});
  boolean_mask_into(t, m, small, count, options());
  EXPECT_EQ(values(small), (std::vector<double>{1, 2, 5, 6}));
  EXPECT_EQ(values(count), (std::vector<double>{3}));
  // Capacity 0 and a scalar count.
  TensorBuffer none = make_f32({0, 2}, {});
  TensorBuffer scalar_count = make(DataType::kInt64, {}, {0});
  boolean_mask_into(t, m, none, scalar_count, options());
  EXPECT_EQ(values(scalar_count), (std::vector<double>{3}));
}

TEST_P(BooleanMask, IntoWithAxis) {
  const TensorBuffer t = make_f32({2, 3}, {1, 2, 3, 4, 5, 6});
  TensorBuffer out = make_f32({2, 3}, {0, 0, 0, 0, 0, 0});
  TensorBuffer count = make(DataType::kInt64, {1}, {0});
  boolean_mask_into(t, make_mask({3}, {1, 0, 1}), out, count, options(1));
  EXPECT_EQ(values(out), (std::vector<double>{1, 3, 0, 4, 6, 0}));
  EXPECT_EQ(values(count), (std::vector<double>{2}));
}

TEST_P(BooleanMask, IntoRejectsBadOutputsAndLeavesThemAlone) {
  const TensorBuffer t = make_f32({3, 2}, {1, 2, 3, 4, 5, 6});
  const TensorBuffer m = make_mask({3}, {1, 0, 1});
  TensorBuffer count = make(DataType::kInt64, {1}, {7});
  TensorBuffer wrong_type = make(DataType::kFloat64, {3, 2}, {9, 9, 9, 9, 9, 9});
  EXPECT_EQ(invalid_argument_text([&] { boolean_mask_into(t, m, wrong_type, count, options()); }),
            "out is float64 but tensor is float32.");
  TensorBuffer wrong_shape = make_f32({3, 3}, std::vector<double>(9, 9));
  EXPECT_EQ(invalid_argument_text([&] { boolean_mask_into(t, m, wrong_shape, count, options()); }),
            "out has shape [3,3]; boolean_mask_into needs [C,2] for a capacity C (the mask's dims "
            "replaced by one).");
  TensorBuffer out = make_f32({3, 2}, std::vector<double>(6, 9));
  TensorBuffer int32_count = make(DataType::kInt32, {1}, {7});
  EXPECT_EQ(invalid_argument_text([&] { boolean_mask_into(t, m, out, int32_count, options()); }),
            "count must be one int64 element, got int32 of shape [1].");
  TensorBuffer two_counts = make(DataType::kInt64, {2}, {7, 7});
  EXPECT_EQ(invalid_argument_text([&] { boolean_mask_into(t, m, out, two_counts, options()); }),
            "count must be one int64 element, got int64 of shape [2].");
  EXPECT_EQ(values(out), std::vector<double>(6, 9));
  EXPECT_EQ(values(count), (std::vector<double>{7}));
  EXPECT_EQ(values(wrong_shape), std::vector<double>(9, 9));
}

TEST_P(BooleanMask, IntoRefusesOutputsThatShareMemoryWithItsInputs) {
  TensorBuffer t = make_f32({3}, {1, 2, 3});
  const TensorBuffer m = make_mask({3}, {1, 0, 1});
  TensorBuffer count = make(DataType::kInt64, {1}, {7});
  EXPECT_EQ(invalid_argument_text([&] { boolean_mask_into(t, m, t, count, options()); }),
            "boolean_mask_into: out and count may not share memory with tensor.");
  EXPECT_EQ(values(t), (std::vector<double>{1, 2, 3}));
}

}  // namespace
}  // namespace tensorbuf
