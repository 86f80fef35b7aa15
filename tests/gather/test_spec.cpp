// gather (spec/indexing.md 4 and 5b) on every device: each rule with exact values or the exact
// error text, ONNX Gather's documented examples and node-test cases (onnx/docs/Operators.md:
// gather_0, gather_1, gather_2d_indices, gather_negative_indices) with their values, and
// tf.gather's batch_dims.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "gather/reference.hpp"
#include "support/devices.hpp"
#include "support/error_text.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::invalid_argument_text;
using testing::mask_update::bytes;
using testing::mask_update::make;
using testing::mask_update::make_f32;
using testing::mask_update::values;

constexpr OutOfBoundsPolicy kError = OutOfBoundsPolicy::kError;
constexpr OutOfBoundsPolicy kDrop = OutOfBoundsPolicy::kDrop;

class Gather : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(GetParam()); }
  GatherOptions options(int axis = 0, OutOfBoundsPolicy policy = kError, int batch_dims = 0) const {
    return {GetParam(), policy, axis, batch_dims, {}};
  }
};

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(Gather);

TensorBuffer idx(const Shape& shape, const std::vector<double>& v,
                 DataType type = DataType::kInt64) {
  return make(type, shape, v);
}

// float32 values as a float32 tensor holds them.
std::vector<double> f32(const std::vector<double>& v) {
  std::vector<double> out;
  for (double x : v) out.push_back(static_cast<double>(static_cast<float>(x)));
  return out;
}

void expect_gathered(const TensorBuffer& out, const Shape& shape, const std::vector<double>& v) {
  EXPECT_EQ(out.shape(), shape);
  EXPECT_EQ(values(out), v);
}

// arange(n) as float32 of `shape`.
TensorBuffer arange(const Shape& shape) {
  std::vector<double> v(static_cast<std::size_t>(shape.num_elements()));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  return make_f32(shape, v);
}

// ---- ONNX Gather ----

TEST_P(Gather, OnnxDocExampleAxis0) {
  const TensorBuffer data = make_f32({3, 2}, {1.0, 1.2, 2.3, 3.4, 4.5, 5.7});
  expect_gathered(gather(data, idx({2, 2}, {0, 1, 1, 2}), options(0)), Shape{2, 2, 2},
                  f32({1.0, 1.2, 2.3, 3.4, 2.3, 3.4, 4.5, 5.7}));
}

TEST_P(Gather, OnnxDocExampleAxis1) {
  const TensorBuffer data = make_f32({3, 3}, {1.0, 1.2, 1.9, 2.3, 3.4, 3.9, 4.5, 5.7, 5.9});
  expect_gathered(gather(data, idx({1, 2}, {0, 2}), options(1)), Shape{3, 1, 2},
                  f32({1.0, 1.9, 2.3, 3.9, 4.5, 5.9}));
}

// test_gather_0 / test_gather_1: data (5,4,3,2), indices [0,1,3] on axis 0 and 1 (np.take).
TEST_P(Gather, OnnxNodeTestGather0And1) {
  const TensorBuffer data = arange({5, 4, 3, 2});
  const TensorBuffer out0 = gather(data, idx({3}, {0, 1, 3}), options(0));
  std::vector<double> want0;
  for (int i : {0, 1, 3}) {
    for (int k = 0; k < 24; ++k) want0.push_back(i * 24 + k);
  }
  expect_gathered(out0, Shape{3, 4, 3, 2}, want0);
  const TensorBuffer out1 = gather(data, idx({3}, {0, 1, 3}), options(1));
  std::vector<double> want1;
  for (int a = 0; a < 5; ++a) {
    for (int i : {0, 1, 3}) {
      for (int k = 0; k < 6; ++k) want1.push_back(a * 24 + i * 6 + k);
    }
  }
  expect_gathered(out1, Shape{5, 3, 3, 2}, want1);
}

// test_gather_2d_indices: data (3,3), indices [[0,2]], axis 1.
TEST_P(Gather, OnnxNodeTest2dIndices) {
  expect_gathered(gather(arange({3, 3}), idx({1, 2}, {0, 2}), options(1)), Shape{3, 1, 2},
                  {0, 2, 3, 5, 6, 8});
}

// test_gather_negative_indices: data arange(10), indices [0, -9, -10], axis 0.
TEST_P(Gather, OnnxNodeTestNegativeIndices) {
  expect_gathered(gather(arange({10}), idx({3}, {0, -9, -10}), options(0)), Shape{3}, {0, 1, 0});
}

// ---- the rules ----

TEST_P(Gather, EveryDtypeAndIndexDtype) {
  for (DataType type : {DataType::kBool, DataType::kUInt8, DataType::kInt8, DataType::kInt16,
                        DataType::kInt32, DataType::kInt64, DataType::kFloat16, DataType::kBFloat16,
                        DataType::kFloat32, DataType::kFloat64}) {
    for (DataType itype : {DataType::kInt32, DataType::kInt64}) {
      const TensorBuffer params = make(type, {2, 3}, {1, 0, 1, 0, 0, 1});
      const TensorBuffer out = gather(params, idx({2}, {2, -3}, itype), options(1));
      EXPECT_EQ(out.data_type(), type);
      expect_gathered(out, Shape{2, 2}, {1, 1, 1, 0});
    }
  }
}

TEST_P(Gather, NegativeAxisCountsFromTheEnd) {
  const TensorBuffer data = arange({2, 3});
  EXPECT_EQ(bytes(gather(data, idx({2}, {2, 0}), options(-1))),
            bytes(gather(data, idx({2}, {2, 0}), options(1))));
  expect_gathered(gather(data, idx({2}, {2, 0}), options(-1)), Shape{2, 2}, {2, 0, 5, 3});
  expect_gathered(gather(data, idx({1}, {-1}), options(-2)), Shape{1, 3}, {3, 4, 5});
}

TEST_P(Gather, ScalarIndicesDropTheAxis) {
  expect_gathered(gather(arange({3, 2}), idx({}, {-1}), options(0)), Shape{2}, {4, 5});
  expect_gathered(gather(arange({3, 2}), idx({}, {1}), options(1)), Shape{3}, {1, 3, 5});
  expect_gathered(gather(arange({4}), idx({}, {2}), options(0)), Shape{}, {2});
  EXPECT_EQ(invalid_argument_text([&] { gather(arange({3}), idx({}, {3}), options()); }),
            "indices = 3 is out of range for axis 0 of shape [3]");
}

TEST_P(Gather, OutOfRangeNamesTheFirstBadPositionUnderKError) {
  const TensorBuffer data = arange({3, 2});
  const TensorBuffer indices = idx({2, 3}, {0, 1, 2, -3, 3, -4});
  EXPECT_EQ(invalid_argument_text([&] { gather(data, indices, options(0)); }),
            "indices[1,1] = 3 is out of range for axis 0 of shape [3,2]");
  EXPECT_EQ(invalid_argument_text([&] { gather(data, idx({2}, {-4, 5}), options(0)); }),
            "indices[0] = -4 is out of range for axis 0 of shape [3,2]");
  EXPECT_EQ(invalid_argument_text([&] { gather(arange({3, 3}), idx({2, 2}, {0, 1, 7, 0}),
                                                options(1)); }),
            "indices[1,0] = 7 is out of range for axis 1 of shape [3,3]");
  EXPECT_EQ(values(indices), (std::vector<double>{0, 1, 2, -3, 3, -4}));  // inputs untouched
  EXPECT_EQ(values(data), (std::vector<double>{0, 1, 2, 3, 4, 5}));
}

TEST_P(Gather, OutOfRangeWritesZerosUnderKDrop) {
  expect_gathered(gather(arange({3, 2}), idx({4}, {2, 3, -4, -3}), options(0, kDrop)),
                  Shape{4, 2}, {4, 5, 0, 0, 0, 0, 0, 1});
  expect_gathered(gather(arange({2, 3}), idx({2}, {-1, 9}), options(1, kDrop)), Shape{2, 2},
                  {2, 0, 5, 0});
}

TEST_P(Gather, BatchDims) {
  // params [[1,2,3],[4,5,6]], one row of indices per batch.
  const TensorBuffer params = make_f32({2, 3}, {1, 2, 3, 4, 5, 6});
  expect_gathered(gather(params, idx({2, 2}, {2, 0, 1, -1}), options(1, kError, 1)),
                  Shape{2, 2}, {3, 1, 5, 6});
  // axis 2 past the batch dim: params [2,2,3], indices [2] (one index per batch).
  const TensorBuffer p3 = arange({2, 2, 3});
  expect_gathered(gather(p3, idx({2}, {2, 0}), options(2, kError, 1)), Shape{2, 2},
                  {2, 5, 6, 9});
  // batch_dims == indices.rank == axis: scalar index per batch.
  expect_gathered(gather(p3, idx({2, 2}, {1, 0, 0, 1}), options(2, kError, 2)), Shape{2, 2},
                  {1, 3, 6, 10});
  // A bad index is named at its full position in indices.
  EXPECT_EQ(invalid_argument_text([&] {
              gather(params, idx({2, 2}, {2, 0, 1, 3}), options(1, kError, 1));
            }),
            "indices[1,1] = 3 is out of range for axis 1 of shape [2,3]");
  expect_gathered(gather(params, idx({2, 2}, {2, 0, 1, 3}), options(1, kDrop, 1)), Shape{2, 2},
                  {3, 1, 5, 0});
}

TEST_P(Gather, EmptyShapes) {
  expect_gathered(gather(arange({3, 2}), idx({0}, {}), options(0)), Shape{0, 2}, {});
  expect_gathered(gather(arange({3, 2}), idx({2, 0}, {}), options(1)), Shape{3, 2, 0}, {});
  // An empty output still has its indices checked (as gather_nd checks rows of empty slices).
  const TensorBuffer no_rows = make_f32({0, 3}, {});
  EXPECT_EQ(invalid_argument_text([&] { gather(no_rows, idx({2}, {0, 3}), options(1)); }),
            "indices[1] = 3 is out of range for axis 1 of shape [0,3]");
  expect_gathered(gather(no_rows, idx({2}, {0, 3}), options(1, kDrop)), Shape{0, 2}, {});
  // An empty axis: every index is out of range.
  const TensorBuffer empty_axis = make_f32({2, 0}, {});
  EXPECT_EQ(invalid_argument_text([&] { gather(empty_axis, idx({1}, {0}), options(1)); }),
            "indices[0] = 0 is out of range for axis 1 of shape [2,0]");
  expect_gathered(gather(empty_axis, idx({1}, {0}), options(1, kDrop)), Shape{2, 1}, {0, 0});
}

TEST_P(Gather, ArgumentErrors) {
  const TensorBuffer data = arange({3, 3});
  EXPECT_EQ(invalid_argument_text([&] { gather(data, make_f32({1}, {0}), options()); }),
            "gather: indices must be int32 or int64, got float32");
  EXPECT_EQ(invalid_argument_text([&] { gather(data, idx({1}, {0}, DataType::kInt16), options()); }),
            "gather: indices must be int32 or int64, got int16");
  EXPECT_EQ(invalid_argument_text([&] { gather(make_f32({}, {1}), idx({1}, {0}), options()); }),
            "gather: params must have rank >= 1, got a scalar");
  EXPECT_EQ(invalid_argument_text([&] { gather(data, idx({1}, {0}), options(2)); }),
            "gather: axis = 2 is out of range for params of rank 2 (shape [3,3])");
  EXPECT_EQ(invalid_argument_text([&] { gather(data, idx({1}, {0}), options(-3)); }),
            "gather: axis = -3 is out of range for params of rank 2 (shape [3,3])");
  EXPECT_EQ(invalid_argument_text([&] { gather(data, idx({3}, {0, 0, 0}), options(1, kError, -1)); }),
            "gather: batch_dims = -1 must be between 0 and indices.rank = 1 (indices shape [3])");
  EXPECT_EQ(invalid_argument_text([&] { gather(data, idx({3}, {0, 0, 0}), options(1, kError, 2)); }),
            "gather: batch_dims = 2 must be between 0 and indices.rank = 1 (indices shape [3])");
  EXPECT_EQ(invalid_argument_text([&] { gather(data, idx({3, 1}, {0, 0, 0}), options(0, kError, 1)); }),
            "gather: batch_dims = 1 must not exceed axis = 0 (params shape [3,3])");
  EXPECT_EQ(invalid_argument_text([&] { gather(data, idx({2, 1}, {0, 0}), options(1, kError, 1)); }),
            "gather: the batch dims of params [3] and indices [2] differ (batch_dims 1, params "
            "shape [3,3], indices shape [2,1])");
}

TEST_P(Gather, KDropIsTheCudaDefaultAndKErrorTheCpus) {
  const TensorBuffer data = arange({3});
  const GatherOptions device_default{GetParam(), OutOfBoundsPolicy::kDeviceDefault, 0, 0, {}};
  if (GetParam().is_cuda()) {
    expect_gathered(gather(data, idx({2}, {1, 3}), device_default), Shape{2}, {1, 0});
  } else {
    EXPECT_EQ(invalid_argument_text([&] { gather(data, idx({2}, {1, 3}), device_default); }),
              "indices[1] = 3 is out of range for axis 0 of shape [3]");
  }
}

}  // namespace
}  // namespace tensorbuf
