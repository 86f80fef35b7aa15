// scatter_elements (spec/indexing.md 2 and 5b) on every device: each rule with exact values or
// the exact error text, and ONNX ScatterElements' node tests (scatter_elements_without_axis,
// _with_axis, _with_negative_indices, _with_duplicate_indices (add), _with_reduction_max,
// _with_reduction_min) plus mul, with their values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
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
using testing::mask_update::values;

constexpr OutOfBoundsPolicy kError = OutOfBoundsPolicy::kError;
constexpr OutOfBoundsPolicy kDrop = OutOfBoundsPolicy::kDrop;

class ScatterElements : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(GetParam()); }
  // Deterministic on CUDA by default, so duplicates give the CPU's result there too.
  ScatterElementsOptions options(int axis = 0, Reduction r = Reduction::kNone,
                                 OutOfBoundsPolicy policy = kError, bool deterministic = true) const {
    return {GetParam(), policy, deterministic, axis, r, {}};
  }
};

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(ScatterElements);

TensorBuffer idx(const Shape& shape, const std::vector<double>& v,
                 DataType type = DataType::kInt64) {
  return make(type, shape, v);
}

double f(double x) { return static_cast<double>(static_cast<float>(x)); }

void expect_values(const TensorBuffer& out, const Shape& shape, const std::vector<double>& v) {
  EXPECT_EQ(out.shape(), shape);
  EXPECT_EQ(values(out), v);
}

TensorBuffer row5() { return make_f32({1, 5}, {1, 2, 3, 4, 5}); }

// ---- ONNX ScatterElements ----

TEST_P(ScatterElements, OnnxWithoutAxis) {
  const TensorBuffer data = make_f32({3, 3}, std::vector<double>(9, 0));
  const TensorBuffer updates = make_f32({2, 3}, {1.0, 1.1, 1.2, 2.0, 2.1, 2.2});
  expect_values(scatter_elements(data, idx({2, 3}, {1, 0, 2, 0, 2, 1}), updates, options()),
                Shape{3, 3}, {2.0, f(1.1), 0.0, 1.0, 0.0, f(2.2), 0.0, f(2.1), f(1.2)});
}

TEST_P(ScatterElements, OnnxWithAxis) {
  expect_values(scatter_elements(row5(), idx({1, 2}, {1, 3}), make_f32({1, 2}, {1.1, 2.1}),
                                 options(1)),
                Shape{1, 5}, {1.0, f(1.1), 3.0, f(2.1), 5.0});
}

TEST_P(ScatterElements, OnnxWithNegativeIndices) {
  expect_values(scatter_elements(row5(), idx({1, 2}, {1, -3}), make_f32({1, 2}, {1.1, 2.1}),
                                 options(1)),
                Shape{1, 5}, {1.0, f(1.1), f(2.1), 4.0, 5.0});
}

TEST_P(ScatterElements, OnnxReductions) {
  const TensorBuffer dup = idx({1, 2}, {1, 1});
  const TensorBuffer updates = make_f32({1, 2}, {1.1, 2.1});
  const float a = 1.1f;
  const float b = 2.1f;
  expect_values(scatter_elements(row5(), dup, updates, options(1, Reduction::kAdd)), Shape{1, 5},
                {1.0, static_cast<double>((2.0f + a) + b), 3.0, 4.0, 5.0});
  expect_values(scatter_elements(row5(), dup, updates, options(1, Reduction::kMul)), Shape{1, 5},
                {1.0, static_cast<double>((2.0f * a) * b), 3.0, 4.0, 5.0});
  expect_values(scatter_elements(row5(), dup, updates, options(1, Reduction::kMax)), Shape{1, 5},
                {1.0, f(2.1), 3.0, 4.0, 5.0});
  expect_values(scatter_elements(row5(), dup, updates, options(1, Reduction::kMin)), Shape{1, 5},
                {1.0, f(1.1), 3.0, 4.0, 5.0});
  // reduction none: the last duplicate wins.
  expect_values(scatter_elements(row5(), dup, updates, options(1)), Shape{1, 5},
                {1.0, f(2.1), 3.0, 4.0, 5.0});
}

// ---- the rules ----

TEST_P(ScatterElements, EveryDtypeAndIndexDtype) {
  for (DataType type : {DataType::kBool, DataType::kUInt8, DataType::kInt8, DataType::kInt16,
                        DataType::kInt32, DataType::kInt64, DataType::kFloat16, DataType::kBFloat16,
                        DataType::kFloat32, DataType::kFloat64}) {
    for (DataType itype : {DataType::kInt32, DataType::kInt64}) {
      const TensorBuffer tensor = make(type, {2, 2}, {0, 1, 1, 0});
      const TensorBuffer out = scatter_elements(tensor, idx({1, 2}, {1, -1}, itype),
                                                make(type, {1, 2}, {1, 1}), options());
      EXPECT_EQ(out.data_type(), type);
      expect_values(out, Shape{2, 2}, {0, 1, 1, 1});
      if (type == DataType::kBool) continue;
      const TensorBuffer added =
          scatter_elements(tensor, idx({2, 1}, {1, 1}, itype), make(type, {2, 1}, {2, 3}),
                           options(1, Reduction::kAdd));
      expect_values(added, Shape{2, 2}, {0, 3, 1, 3});
    }
  }
}

TEST_P(ScatterElements, DuplicatesApplyInRowMajorOrder) {
  // Along axis 1: row 0's three positions all land in column 0.
  const TensorBuffer t = make_f32({2, 3}, {0, 0, 0, 0, 0, 0});
  const TensorBuffer indices = idx({2, 3}, {0, 0, 0, 2, 2, 1});
  const TensorBuffer updates = make_f32({2, 3}, {1, 2, 3, 4, 5, 6});
  expect_values(scatter_elements(t, indices, updates, options(1)), Shape{2, 3}, {3, 0, 0, 0, 6, 5});
  // Along axis 0: positions (0,1) and (1,1) both land in row 0.
  expect_values(scatter_elements(t, idx({2, 3}, {1, 0, 1, 0, 0, 0}), updates, options(0)),
                Shape{2, 3}, {4, 5, 6, 1, 0, 3});
}

TEST_P(ScatterElements, IntegersWrapAndNaNPropagates) {
  const TensorBuffer t = make(DataType::kInt8, {1, 2}, {100, -128});
  expect_values(scatter_elements(t, idx({1, 2}, {0, 1}), make(DataType::kInt8, {1, 2}, {100, -1}),
                                 options(1, Reduction::kAdd)),
                Shape{1, 2}, {-56, 127});
  expect_values(scatter_elements(t, idx({1, 1}, {0}), make(DataType::kInt8, {1, 1}, {3}),
                                 options(1, Reduction::kMul)),
                Shape{1, 2}, {44, -128});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const TensorBuffer ft = make_f32({1, 3}, {nan, 1, 2});
  const TensorBuffer mins = scatter_elements(ft, idx({1, 3}, {0, 1, 2}),
                                             make_f32({1, 3}, {0, nan, 5}), options(1, Reduction::kMin));
  const std::vector<double> v = values(mins);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_TRUE(std::isnan(v[1]));
  EXPECT_EQ(v[2], 2);
  const std::vector<double> w = values(scatter_elements(
      ft, idx({1, 3}, {0, 1, 2}), make_f32({1, 3}, {0, nan, 5}), options(1, Reduction::kMax)));
  EXPECT_TRUE(std::isnan(w[0]));
  EXPECT_TRUE(std::isnan(w[1]));
  EXPECT_EQ(w[2], 5);
}

TEST_P(ScatterElements, IndicesSmallerThanTheTensorOffTheAxis) {
  // tensor [3,4] zeros, indices/updates [2,2] along axis 1: only rows 0-1 are touched.
  const TensorBuffer t = make_f32({3, 4}, std::vector<double>(12, 0));
  expect_values(scatter_elements(t, idx({2, 2}, {3, 0, -1, 1}), make_f32({2, 2}, {1, 2, 3, 4}),
                                 options(1)),
                Shape{3, 4}, {2, 0, 0, 1, 0, 4, 0, 3, 0, 0, 0, 0});
}

TEST_P(ScatterElements, OutOfRangeUnderEachPolicy) {
  const TensorBuffer t = make_f32({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  const TensorBuffer indices = idx({2, 2}, {0, 1, 7, -4});
  const TensorBuffer updates = make_f32({2, 2}, {10, 20, 30, 40});
  EXPECT_EQ(invalid_argument_text([&] { scatter_elements(t, indices, updates, options(1)); }),
            "indices[1,0] = 7 is out of range for axis 1 of shape [3,3]");
  EXPECT_EQ(invalid_argument_text([&] {
              scatter_elements(t, idx({2, 2}, {0, 1, 2, -4}), updates, options(1));
            }),
            "indices[1,1] = -4 is out of range for axis 1 of shape [3,3]");
  expect_values(scatter_elements(t, indices, updates, options(1, Reduction::kNone, kDrop)),
                Shape{3, 3}, {10, 20, 3, 4, 5, 6, 7, 8, 9});
  // In place: an error leaves the tensor as it was.
  TensorBuffer target = make_f32({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  EXPECT_EQ(invalid_argument_text([&] {
              scatter_elements_in_place(target, indices, updates, options(1, Reduction::kAdd));
            }),
            "indices[1,0] = 7 is out of range for axis 1 of shape [3,3]");
  EXPECT_EQ(values(target), values(t));
  EXPECT_EQ(values(indices), (std::vector<double>{0, 1, 7, -4}));
}

TEST_P(ScatterElements, InPlaceAndAliasedInputs) {
  TensorBuffer t = make_f32({2, 2}, {1, 2, 3, 4});
  scatter_elements_in_place(t, idx({2, 2}, {1, 0, 1, 1}), make_f32({2, 2}, {5, 6, 7, 8}),
                            options(1, Reduction::kAdd));
  expect_values(t, Shape{2, 2}, {7, 7, 3, 19});
  // updates is the tensor itself: read in full before any write.
  TensorBuffer u = make_f32({2, 2}, {1, 2, 3, 4});
  scatter_elements_in_place(u, idx({2, 2}, {1, 0, 0, 1}), u, options(1));
  expect_values(u, Shape{2, 2}, {2, 1, 3, 4});
}

TEST_P(ScatterElements, DeterministicOrNotTheIntegerSumsAgree) {
  const TensorBuffer t = make(DataType::kInt32, {4}, {0, 0, 0, 0});
  std::vector<double> where(1000);
  std::vector<double> what(1000);
  for (int i = 0; i < 1000; ++i) {
    where[static_cast<std::size_t>(i)] = i % 4 - (i % 3 == 0 ? 4 : 0);
    what[static_cast<std::size_t>(i)] = i;
  }
  const TensorBuffer indices = idx({1000}, where);
  const TensorBuffer updates = make(DataType::kInt32, {1000}, what);
  std::vector<double> sums(4, 0);
  for (int i = 0; i < 1000; ++i) sums[static_cast<std::size_t>(i % 4)] += i;
  for (bool deterministic : {true, false}) {
    expect_values(scatter_elements(t, indices, updates,
                                   options(0, Reduction::kAdd, kError, deterministic)),
                  Shape{4}, sums);
  }
}

TEST_P(ScatterElements, EmptyShapes) {
  const TensorBuffer t = make_f32({2, 2}, {1, 2, 3, 4});
  expect_values(scatter_elements(t, idx({0, 2}, {}), make_f32({0, 2}, {}), options()), Shape{2, 2},
                {1, 2, 3, 4});
  const TensorBuffer empty = make_f32({2, 0}, {});
  EXPECT_EQ(invalid_argument_text([&] {
              scatter_elements(empty, idx({1, 1}, {0}), make_f32({1, 1}, {9}), options(1));
            }),
            "indices[0,0] = 0 is out of range for axis 1 of shape [2,0]");
  expect_values(scatter_elements(empty, idx({1, 1}, {0}), make_f32({1, 1}, {9}),
                                 options(1, Reduction::kNone, kDrop)),
                Shape{2, 0}, {});
}

TEST_P(ScatterElements, ArgumentErrors) {
  const TensorBuffer t = make_f32({3, 3}, std::vector<double>(9, 0));
  const TensorBuffer u = make_f32({1, 2}, {1, 2});
  EXPECT_EQ(invalid_argument_text([&] { scatter_elements(t, make_f32({1, 2}, {0, 0}), u, options()); }),
            "scatter_elements: indices must be int32 or int64, got float32");
  EXPECT_EQ(invalid_argument_text([&] { scatter_elements(t, idx({1, 2}, {0, 0}), u, options(-3)); }),
            "scatter_elements: axis = -3 is out of range for tensor of rank 2 (shape [3,3])");
  EXPECT_EQ(invalid_argument_text([&] { scatter_elements(t, idx({2}, {0, 0}), make_f32({2}, {1, 2}), options()); }),
            "scatter_elements: indices shape [2] must have the rank of tensor shape [3,3]");
  EXPECT_EQ(invalid_argument_text([&] {
              scatter_elements(t, idx({1, 4}, {0, 0, 0, 0}), make_f32({1, 4}, {1, 2, 3, 4}), options());
            }),
            "scatter_elements: indices.shape[1] = 4 exceeds tensor.shape[1] = 3 (indices shape "
            "[1,4], tensor shape [3,3], axis 0)");
  EXPECT_EQ(invalid_argument_text([&] { scatter_elements(t, idx({1, 2}, {0, 0}), make_f32({2, 1}, {1, 2}), options()); }),
            "scatter_elements: updates shape [2,1] must equal indices shape [1,2]");
  EXPECT_EQ(invalid_argument_text([&] {
              scatter_elements(t, idx({1, 2}, {0, 0}), make(DataType::kInt32, {1, 2}, {1, 2}), options());
            }),
            "scatter_elements: updates must have the tensor's dtype float32, got int32");
  const TensorBuffer flags = make(DataType::kBool, {2}, {0, 1});
  EXPECT_EQ(invalid_argument_text([&] {
              scatter_elements(flags, idx({1}, {0}), make(DataType::kBool, {1}, {1}),
                               options(0, Reduction::kMax));
            }),
            "scatter_elements: reduction max is not defined on bool");
  EXPECT_EQ(invalid_argument_text([&] {
              scatter_elements(make_f32({}, {1}), idx({}, {0}), make_f32({}, {1}), options());
            }),
            "scatter_elements: tensor must have rank >= 1, got a scalar");
}

}  // namespace
}  // namespace tensorbuf
