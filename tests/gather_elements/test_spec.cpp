// gather_elements (spec/indexing.md 4 and 5b) on every device: each rule with exact values or
// the exact error text, and ONNX GatherElements' documented examples and node tests
// (gather_elements_0, gather_elements_1, gather_elements_negative_indices), which are also
// torch.gather's.
#include <gtest/gtest.h>

#include <cstdint>
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

class GatherElements : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(GetParam()); }
  GatherOptions options(int axis = 0, OutOfBoundsPolicy policy = kError) const {
    return {GetParam(), policy, axis, 0, {}};
  }
};

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(GatherElements);

TensorBuffer idx(const Shape& shape, const std::vector<double>& v,
                 DataType type = DataType::kInt64) {
  return make(type, shape, v);
}

void expect_gathered(const TensorBuffer& out, const Shape& shape, const std::vector<double>& v) {
  EXPECT_EQ(out.shape(), shape);
  EXPECT_EQ(values(out), v);
}

TensorBuffer nine() { return make_f32({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}); }

// ---- ONNX GatherElements ----

TEST_P(GatherElements, OnnxExample0Axis1) {
  expect_gathered(gather_elements(make_f32({2, 2}, {1, 2, 3, 4}), idx({2, 2}, {0, 0, 1, 0}),
                                  options(1)),
                  Shape{2, 2}, {1, 1, 4, 3});
}

TEST_P(GatherElements, OnnxExample1Axis0) {
  expect_gathered(gather_elements(nine(), idx({2, 3}, {1, 2, 0, 2, 0, 0}), options(0)),
                  Shape{2, 3}, {4, 8, 3, 7, 2, 3});
}

TEST_P(GatherElements, OnnxNegativeIndices) {
  expect_gathered(gather_elements(nine(), idx({2, 3}, {-1, -2, 0, -2, 0, 0}), options(0)),
                  Shape{2, 3}, {7, 5, 3, 4, 2, 3});
}

// ---- the rules ----

TEST_P(GatherElements, EveryDtypeAndIndexDtype) {
  for (DataType type : {DataType::kBool, DataType::kUInt8, DataType::kInt8, DataType::kInt16,
                        DataType::kInt32, DataType::kInt64, DataType::kFloat16, DataType::kBFloat16,
                        DataType::kFloat32, DataType::kFloat64}) {
    for (DataType itype : {DataType::kInt32, DataType::kInt64}) {
      const TensorBuffer params = make(type, {2, 3}, {1, 0, 1, 0, 0, 1});
      const TensorBuffer out = gather_elements(params, idx({2, 2}, {2, -2, 1, 2}, itype), options(1));
      EXPECT_EQ(out.data_type(), type);
      expect_gathered(out, Shape{2, 2}, {1, 0, 0, 1});
    }
  }
}

TEST_P(GatherElements, IndicesSmallerThanParamsOffTheAxis) {
  // params [3,4] = 0..11, indices [2,2] along axis 1: rows 0-1, columns from indices.
  std::vector<double> v(12);
  for (int i = 0; i < 12; ++i) v[static_cast<std::size_t>(i)] = i;
  const TensorBuffer params = make_f32({3, 4}, v);
  expect_gathered(gather_elements(params, idx({2, 2}, {3, 0, -1, 1}), options(1)), Shape{2, 2},
                  {3, 0, 7, 5});
  // Along axis 0, indices longer than params there: [4,1].
  expect_gathered(gather_elements(params, idx({4, 1}, {2, 0, 1, -3}), options(-2)), Shape{4, 1},
                  {8, 0, 4, 0});
  // Rank 3, the middle dim cut: params [2,3,2], indices [2,1,2] on axis 2.
  std::vector<double> w(12);
  for (int i = 0; i < 12; ++i) w[static_cast<std::size_t>(i)] = 10 * i;
  expect_gathered(gather_elements(make_f32({2, 3, 2}, w), idx({2, 1, 2}, {1, 0, 0, 1}), options(2)),
                  Shape{2, 1, 2}, {10, 0, 60, 70});
}

TEST_P(GatherElements, OutOfRangeUnderEachPolicy) {
  const TensorBuffer indices = idx({2, 3}, {1, 2, 0, 3, 0, -4});
  EXPECT_EQ(invalid_argument_text([&] { gather_elements(nine(), indices, options(0)); }),
            "indices[1,0] = 3 is out of range for axis 0 of shape [3,3]");
  EXPECT_EQ(invalid_argument_text([&] {
              gather_elements(nine(), idx({1, 2}, {0, -4}), options(1));
            }),
            "indices[0,1] = -4 is out of range for axis 1 of shape [3,3]");
  expect_gathered(gather_elements(nine(), indices, options(0, kDrop)), Shape{2, 3},
                  {4, 8, 3, 0, 2, 0});
  EXPECT_EQ(values(indices), (std::vector<double>{1, 2, 0, 3, 0, -4}));  // inputs untouched
}

TEST_P(GatherElements, EmptyShapes) {
  expect_gathered(gather_elements(nine(), idx({0, 3}, {}), options(0)), Shape{0, 3}, {});
  expect_gathered(gather_elements(nine(), idx({3, 0}, {}), options(0)), Shape{3, 0}, {});
  const TensorBuffer empty_axis = make_f32({2, 0}, {});
  EXPECT_EQ(invalid_argument_text([&] { gather_elements(empty_axis, idx({2, 1}, {0, 0}), options(1)); }),
            "indices[0,0] = 0 is out of range for axis 1 of shape [2,0]");
  expect_gathered(gather_elements(empty_axis, idx({2, 1}, {0, 0}), options(1, kDrop)),
                  Shape{2, 1}, {0, 0});
}

TEST_P(GatherElements, ArgumentErrors) {
  EXPECT_EQ(invalid_argument_text([&] { gather_elements(nine(), make_f32({1, 1}, {0}), options()); }),
            "gather_elements: indices must be int32 or int64, got float32");
  EXPECT_EQ(invalid_argument_text([&] { gather_elements(make_f32({}, {1}), idx({}, {0}), options()); }),
            "gather_elements: params must have rank >= 1, got a scalar");
  EXPECT_EQ(invalid_argument_text([&] { gather_elements(nine(), idx({1, 1}, {0}), options(2)); }),
            "gather_elements: axis = 2 is out of range for params of rank 2 (shape [3,3])");
  EXPECT_EQ(invalid_argument_text([&] { gather_elements(nine(), idx({3}, {0, 0, 0}), options()); }),
            "gather_elements: indices shape [3] must have the rank of params shape [3,3]");
  EXPECT_EQ(invalid_argument_text([&] {
              gather_elements(nine(), idx({1, 4}, {0, 0, 0, 0}), options(0));
            }),
            "gather_elements: indices.shape[1] = 4 exceeds params.shape[1] = 3 (indices shape "
            "[1,4], params shape [3,3], axis 0)");
}

}  // namespace
}  // namespace tensorbuf
