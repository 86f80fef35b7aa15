// gather_nd (spec/indexing.md 3 and 5b) on every device: each rule with exact values or the exact
// error text, and TensorFlow's own GatherNdTest cases
// (tensorflow/python/kernel_tests/array_ops/gather_nd_op_test.py) ported with their values
// (the forward values of its gradient tests included), plus ONNX GatherND's documented examples.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "gather_nd/reference.hpp"
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
using testing::mask_update::values;

constexpr OutOfBoundsPolicy kError = OutOfBoundsPolicy::kError;
constexpr OutOfBoundsPolicy kDrop = OutOfBoundsPolicy::kDrop;

class GatherNd : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(GetParam()); }
  GatherOptions options(OutOfBoundsPolicy policy = kError, int batch_dims = 0) const {
    return {GetParam(), policy, 0, batch_dims, {}};
  }
};

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(GatherNd);

TensorBuffer idx(const Shape& shape, const std::vector<double>& v,
                 DataType type = DataType::kInt32) {
  return make(type, shape, v);
}

void expect_gathered(const TensorBuffer& out, const Shape& shape, const std::vector<double>& v) {
  EXPECT_EQ(out.shape(), shape);
  EXPECT_EQ(values(out), v);
}

// ---- TensorFlow's GatherNdTest ----

TEST_P(GatherNd, TfSimpleDtype) {
  for (DataType type : {DataType::kBool, DataType::kUInt8, DataType::kInt8, DataType::kInt16,
                        DataType::kInt32, DataType::kInt64, DataType::kFloat16, DataType::kBFloat16,
                        DataType::kFloat32, DataType::kFloat64}) {
    for (DataType itype : {DataType::kInt32, DataType::kInt64}) {
      const TensorBuffer params = make(type, {6}, {8, 1, 2, 3, 7, 5});
      const TensorBuffer out = gather_nd(params, idx({3, 1}, {4, 4, 0}, itype), options());
      EXPECT_EQ(out.data_type(), type);
      if (type == DataType::kBool) {
        expect_gathered(out, Shape{3}, {1, 1, 1});
      } else {
        expect_gathered(out, Shape{3}, {7, 7, 8});
      }
    }
  }
}

TEST_P(GatherNd, TfEmptyIndicesAndParamsOKButJustEmptyParamsFails) {
  const TensorBuffer params = make_f32({3, 3}, std::vector<double>(9, 1));
  expect_gathered(gather_nd(params, idx({0, 2}, {}), options()), Shape{0}, {});
  expect_gathered(gather_nd(params, idx({0, 1}, {}), options()), Shape{0, 3}, {});
  const TensorBuffer empty = make_f32({0, 3}, {});
  expect_gathered(gather_nd(empty, idx({0, 2}, {}), options()), Shape{0}, {});
  // TensorFlow: "Requested more than 0 entries, but params is empty."; here the row is out of
  // range like any other (spec rule 3), so kDrop gives a zero.
  EXPECT_EQ(invalid_argument_text([&] {
              gather_nd(empty, idx({1, 2}, {0, 0}), options());
            }),
            "indices[0] = [0, 0] does not index into shape [0,3]");
  expect_gathered(gather_nd(empty, idx({1, 2}, {0, 0}), options(kDrop)), Shape{1}, {0});
}

// params of TensorFlow's tests: np.array([[-8, -1, -2, -3, -7, -5], [8, 1, 2, 3, 7, 5]]).T.
TensorBuffer tf_params_6x2() {
  return make_f32({6, 2}, {-8, 8, -1, 1, -2, 2, -3, 3, -7, 7, -5, 5});
}

// np.array([[[-8, ...], [8, ...]], [[-80, ...], [80, ...]]]).T: shape [6,2,2],
// p[i][j][k] = original[k][j][i].
TensorBuffer tf_params_6x2x2() {
  const double low[6] = {-8, -1, -2, -3, -7, -5};
  std::vector<double> v;
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 2; ++j) {
      for (int k = 0; k < 2; ++k) v.push_back((j == 0 ? 1 : -1) * low[i] * (k == 0 ? 1 : 10));
    }
  }
  return make_f32({6, 2, 2}, v);
}

TEST_P(GatherNd, TfIndexScalar) {
  expect_gathered(gather_nd(tf_params_6x2(), idx({2}, {4, 1}), options()), Shape{}, {7});
}

TEST_P(GatherNd, TfParamsRankLargerThanIndexIndexScalarSlices) {
  expect_gathered(gather_nd(tf_params_6x2(), idx({1}, {4}), options()), Shape{2}, {-7, 7});
}

TEST_P(GatherNd, TfParamsRankLargerThanIndexSlices) {
  expect_gathered(gather_nd(tf_params_6x2(), idx({3, 1}, {4, 4, 0}), options()), Shape{3, 2},
                  {-7, 7, -7, 7, -8, 8});
}

TEST_P(GatherNd, TfHigherRankParamsLargerThanIndexSlices) {
  expect_gathered(gather_nd(tf_params_6x2x2(), idx({3, 1}, {4, 4, 0}), options()), Shape{3, 2, 2},
                  {-7, -70, 7, 70, -7, -70, 7, 70, -8, -80, 8, 80});
}

TEST_P(GatherNd, TfEmptyIndicesLastRankIsRejected) {
  // TensorFlow copies the whole tensor for indices of shape [2, 0]; spec rule 1 asks D >= 1.
  EXPECT_EQ(invalid_argument_text([&] {
              gather_nd(tf_params_6x2x2(), idx({2, 0}, {}), options());
            }),
            "gather_nd: index depth indices.shape[-1] = 0 must be between 1 and params.rank - "
            "batch_dims = 3 (indices shape [2,0], params shape [6,2,2], batch_dims 0)");
}

TEST_P(GatherNd, TfHigherRankParamsAndIndicesLargerThanIndexSlices) {
  const TensorBuffer out =
      gather_nd(tf_params_6x2x2(), idx({2, 3, 1}, {3, 2, 1, 4, 4, 0}), options());
  expect_gathered(out, Shape{2, 3, 2, 2}, {-3, -30, 3, 30, -2, -20, 2, 20, -1, -10, 1, 10,
                                           -7, -70, 7, 70, -7, -70, 7, 70, -8, -80, 8, 80});
}

// TensorFlow's testHigherRankParams / testHigherRankParamsAndIndices: 2000 random rows of depth
// 5 into a [10,20,5,1,17] tensor, flat and reshaped to [10,10,20,5].
TEST_P(GatherNd, TfHigherRankParamsAndIndices) {
  const std::vector<std::int64_t> shape = {10, 20, 5, 1, 17};
  std::mt19937_64 rng(127);
  std::vector<double> p(10 * 20 * 5 * 17);
  for (auto& v : p) v = static_cast<double>(static_cast<std::int64_t>(rng() % 100000)) / 8;
  std::vector<double> rows;
  std::vector<double> expected;
  for (int r = 0; r < 2000; ++r) {
    std::int64_t flat = 0;
    for (std::int64_t d : shape) {
      const auto v = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(d));
      rows.push_back(static_cast<double>(v));
      flat = flat * d + v;
    }
    expected.push_back(p[static_cast<std::size_t>(flat)]);
  }
  const TensorBuffer params = make(DataType::kFloat64, Shape(shape), p);
  expect_gathered(gather_nd(params, idx({2000, 5}, rows, DataType::kInt64), options()), Shape{2000},
                  expected);
  expect_gathered(gather_nd(params, idx({10, 10, 20, 5}, rows), options()), Shape{10, 10, 20},
                  expected);
}

TEST_P(GatherNd, TfBadIndices) {
  EXPECT_EQ(invalid_argument_text([&] {
              gather_nd(make_f32({3}, {0, 1, 2}), idx({1, 2, 1}, {0, 7}), options());
            }),
            "indices[0,1] = [7] does not index into shape [3]");
  expect_gathered(gather_nd(make_f32({3}, {10, 11, 12}), idx({1, 2, 1}, {0, 7}), options(kDrop)),
                  Shape{1, 2}, {10, 0});
}

TEST_P(GatherNd, TfBadIndicesWithSlices) {
  EXPECT_EQ(invalid_argument_text([&] {
              gather_nd(make_f32({1, 3}, {0, 1, 2}), idx({1, 3, 1}, {0, 0, 1}), options());
            }),
            "indices[0,2] = [1] does not index into shape [1,3]");
  expect_gathered(gather_nd(make_f32({1, 3}, {4, 5, 6}), idx({1, 3, 1}, {0, 0, 1}), options(kDrop)),
                  Shape{1, 3, 3}, {4, 5, 6, 4, 5, 6, 0, 0, 0});
}

// The forward values of TensorFlow's gradient tests.
TEST_P(GatherNd, TfGradientCasesForward) {
  const TensorBuffer m = make(DataType::kFloat64, {2, 2}, {1, 2, 3, 4});
  expect_gathered(gather_nd(m, idx({2, 2}, {0, 0, 1, 1}), options()), Shape{2}, {1, 4});
  expect_gathered(gather_nd(m, idx({2, 1}, {1, 0}), options()), Shape{2, 2}, {3, 4, 1, 2});
  const TensorBuffer cube = make(DataType::kFloat64, {2, 2, 2}, {1, 3, 5, 7, 2, 4, 6, 8});
  for (DataType itype : {DataType::kInt32, DataType::kInt64}) {
    expect_gathered(gather_nd(cube, idx({2, 2, 2}, {0, 1, 1, 0, 0, 0, 1, 1}, itype), options()),
                    Shape{2, 2, 2}, {5, 7, 2, 4, 1, 3, 6, 8});
  }
  // testGradientsRank7Elements: inputs [1,1,2,1,1,2,2], indices [1,1,2,1,1,2,6].
  const TensorBuffer rank7 =
      make(DataType::kFloat64, {1, 1, 2, 1, 1, 2, 2}, {1, 3, 5, 7, 2, 4, 6, 8});
  const TensorBuffer i7 = idx({1, 1, 2, 1, 1, 2, 6}, {0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0,
                                                      0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1});
  expect_gathered(gather_nd(rank7, i7, options()), Shape{1, 1, 2, 1, 1, 2, 2},
                  {5, 7, 2, 4, 1, 3, 6, 8});
  // testGradientsRank2SlicesWithEmptySpace.
  std::vector<double> rows;
  for (int r = 0; r < 6; ++r) {
    for (int c = 1; c <= 9; ++c) rows.push_back(c);
  }
  std::vector<double> three;
  for (int r = 0; r < 3; ++r) {
    for (int c = 1; c <= 9; ++c) three.push_back(c);
  }
  expect_gathered(
      gather_nd(make(DataType::kFloat64, {6, 9}, rows), idx({3, 1}, {2, 0, 5}), options()),
      Shape{3, 9}, three);
}

TEST_P(GatherNd, TfGatherNdRefVariable) {
  expect_gathered(gather_nd(make(DataType::kInt32, {3, 2}, {1, 2, 3, 4, 5, 6}),
                            idx({2, 2}, {0, 1, 2, 0}), options()),
                  Shape{2}, {2, 5});
}

// ---- ONNX GatherND's examples ----

TEST_P(GatherNd, OnnxExamples) {
  const TensorBuffer square = make(DataType::kInt32, {2, 2}, {0, 1, 2, 3});
  expect_gathered(gather_nd(square, idx({2, 2}, {0, 0, 1, 1}), options()), Shape{2}, {0, 3});
  expect_gathered(gather_nd(square, idx({2, 1}, {1, 0}), options()), Shape{2, 2}, {2, 3, 0, 1});
  const TensorBuffer cube = make(DataType::kFloat32, {2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  expect_gathered(gather_nd(cube, idx({2, 2}, {0, 1, 1, 0}), options()), Shape{2, 2}, {2, 3, 4, 5});
  expect_gathered(gather_nd(cube, idx({2, 1, 2}, {0, 1, 1, 0}), options()), Shape{2, 1, 2},
                  {2, 3, 4, 5});
  // batch_dims = 1.
  expect_gathered(gather_nd(cube, idx({2, 1}, {1, 0}), options(kError, 1)), Shape{2, 2},
                  {2, 3, 4, 5});
}

// ---- Rule 1: shapes, batch_dims, dtypes ----

TEST_P(GatherNd, S1_OutputShapeIsIndicesShapeButLastPlusTheSliceShape) {
  const TensorBuffer p = make_f32({2, 3, 4}, std::vector<double>(24, 0));
  EXPECT_EQ(gather_nd(p, idx({5, 1}, {0, 1, 0, 1, 1}), options()).shape(), (Shape{5, 3, 4}));
  EXPECT_EQ(gather_nd(p, idx({5, 7, 2}, std::vector<double>(70, 0)), options()).shape(),
            (Shape{5, 7, 4}));
  EXPECT_EQ(gather_nd(p, idx({3}, {1, 2, 3}), options()).shape(), Shape{});
  EXPECT_EQ(gather_nd(p, idx({2, 0, 1}, {}), options()).shape(), (Shape{2, 0, 3, 4}));
}

TEST_P(GatherNd, S1_BatchDimsPickTheBatchOfEachRow) {
  // TensorFlow's documented example: [2,7].
  const TensorBuffer p = make_f32({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  expect_gathered(gather_nd(p, idx({2, 2}, {0, 1, 1, 0}), options(kError, 1)), Shape{2}, {2, 7});
  // batch_dims = 2 with a slice left: params [2,2,2,3], indices [2,2,3,1].
  std::vector<double> v(24);
  for (int i = 0; i < 24; ++i) v[static_cast<std::size_t>(i)] = i;
  const TensorBuffer p4 = make_f32({2, 2, 2, 3}, v);
  expect_gathered(gather_nd(p4, idx({2, 2, 2, 1}, {1, 0, 0, 0, 1, 1, 0, 1}), options(kError, 2)),
                  Shape{2, 2, 2, 3}, {3,  4,  5,  0,  1,  2,  6,  7,  8,  6,  7,  8,
                                      15, 16, 17, 15, 16, 17, 18, 19, 20, 21, 22, 23});
  // Rows per batch of rank 2, elements.
  expect_gathered(gather_nd(p, idx({2, 1, 2, 2}, {0, 0, 1, 1, 1, 0, 0, 1}), options(kError, 1)),
                  Shape{2, 1, 2}, {1, 4, 7, 6});
}

TEST_P(GatherNd, S1_BatchDimsOutOfRangeRaise) {
  const TensorBuffer p = make_f32({2, 3}, std::vector<double>(6, 0));
  const TensorBuffer i = idx({2, 1}, {0, 1});
  EXPECT_EQ(invalid_argument_text([&] { gather_nd(p, i, options(kError, -1)); }),
            "gather_nd: batch_dims = -1 must be between 0 and indices.rank - 1 = 1 (indices "
            "shape [2,1])");
  EXPECT_EQ(invalid_argument_text([&] { gather_nd(p, i, options(kError, 2)); }),
            "gather_nd: batch_dims = 2 must be between 0 and indices.rank - 1 = 1 (indices "
            "shape [2,1])");
  EXPECT_EQ(invalid_argument_text([&] { gather_nd(p, idx({}, {0}), options()); }),
            "gather_nd: batch_dims = 0 must be between 0 and indices.rank - 1 = -1 (indices "
            "shape [])");
}

TEST_P(GatherNd, S1_DepthOutOfRangeRaises) {
  const TensorBuffer p = make_f32({2, 3}, std::vector<double>(6, 0));
  EXPECT_EQ(invalid_argument_text([&] {
              gather_nd(p, idx({1, 3}, {0, 0, 0}), options());
            }),
            "gather_nd: index depth indices.shape[-1] = 3 must be between 1 and params.rank - "
            "batch_dims = 2 (indices shape [1,3], params shape [2,3], batch_dims 0)");
  EXPECT_EQ(invalid_argument_text([&] {
              gather_nd(p, idx({2, 2}, {0, 0, 0, 0}), options(kError, 1));
            }),
            "gather_nd: index depth indices.shape[-1] = 2 must be between 1 and params.rank - "
            "batch_dims = 1 (indices shape [2,2], params shape [2,3], batch_dims 1)");
  EXPECT_EQ(invalid_argument_text([&] { gather_nd(make_f32({}, {1}), idx({1}, {0}), options()); }),
            "gather_nd: index depth indices.shape[-1] = 1 must be between 1 and params.rank - "
            "batch_dims = 0 (indices shape [1], params shape [], batch_dims 0)");
}

TEST_P(GatherNd, S1_BatchDimsOfParamsAndIndicesMustBeEqual) {
  const TensorBuffer p = make_f32({2, 3}, std::vector<double>(6, 0));
  EXPECT_EQ(invalid_argument_text([&] {
              gather_nd(p, idx({3, 1}, {0, 0, 0}), options(kError, 1));
            }),
            "gather_nd: the batch dims of params [2] and indices [3] differ (batch_dims 1, "
            "params shape [2,3], indices shape [3,1])");
}

TEST_P(GatherNd, S5b_IndicesMustBeInt32OrInt64) {
  const TensorBuffer p = make_f32({3}, {1, 2, 3});
  for (DataType type : {DataType::kInt16, DataType::kUInt8, DataType::kFloat32}) {
    EXPECT_EQ(invalid_argument_text([&] {
                gather_nd(p, make(type, {1, 1}, {0}), options());
              }),
              "gather_nd: indices must be int32 or int64, got " + std::string(to_string(type)));
  }
}

TEST_P(GatherNd, S5b_EveryDtypeMovesItsBytes) {
  for (DataType type : {DataType::kBool, DataType::kUInt8, DataType::kInt8, DataType::kInt16,
                        DataType::kInt32, DataType::kInt64, DataType::kFloat16, DataType::kBFloat16,
                        DataType::kFloat32, DataType::kFloat64}) {
    const TensorBuffer p = make(type, {2, 3}, {1, 0, 1, 0, 1, 1});
    const TensorBuffer out = gather_nd(p, idx({3, 1}, {1, 0, 1}), options());
    EXPECT_EQ(out.data_type(), type);
    expect_gathered(out, Shape{3, 3}, {0, 1, 1, 1, 0, 1, 0, 1, 1});
  }
  // NaN payloads and bool bytes other than 1 come out as they went in.
  const std::vector<std::uint8_t> raw = {0x01, 0x00, 0xc0, 0x7f, 0x02, 0x00, 0xc0, 0xff};
  EXPECT_EQ(bytes(gather_nd(from_bytes(DataType::kFloat32, {2}, raw), idx({1, 1}, {1}), options())),
            std::vector<std::uint8_t>(raw.begin() + 4, raw.end()));
  EXPECT_EQ(bytes(gather_nd(from_bytes(DataType::kBool, {3}, {0, 7, 255}), idx({2, 1}, {2, 1}),
                            options())),
            (std::vector<std::uint8_t>{255, 7}));
}

TEST_P(GatherNd, S5b_AxisIsNotReadByGatherNd) {
  GatherOptions o = options();
  o.axis = 5;
  expect_gathered(gather_nd(make_f32({3}, {1, 2, 3}), idx({1, 1}, {2}), o), Shape{1}, {3});
}

// ---- Rule 2: negative components are out of range ----

TEST_P(GatherNd, S2_NegativeComponentsAreOutOfRange) {
  const TensorBuffer p = make_f32({3, 2}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(invalid_argument_text([&] {
              gather_nd(p, idx({2, 1}, {0, -1}), options());
            }),
            "indices[1] = [-1] does not index into shape [3,2]");
  expect_gathered(gather_nd(p, idx({2, 1}, {-1, 2}), options(kDrop)), Shape{2, 2}, {0, 0, 5, 6});
  expect_gathered(gather_nd(p, idx({1, 2}, {1, -2}, DataType::kInt64), options(kDrop)), Shape{1},
                  {0});
}

// ---- Rule 3: out of range ----

TEST_P(GatherNd, S3_ErrorNamesTheFirstBadRowAmongMany) {
  // Enough rows for several CPU chunks; bad rows late in the range, the first named.
  const std::int64_t n = 200000;
  std::vector<double> rows(static_cast<std::size_t>(n) * 2, 1);
  rows[2 * 150000 + 1] = 9;
  rows[2 * 120001] = -3;
  rows[2 * 190000] = 4;
  const TensorBuffer p = make_f32({4, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  EXPECT_EQ(invalid_argument_text([&] {
              gather_nd(p, idx({n, 2}, rows), options());
            }),
            "indices[120001] = [-3, 1] does not index into shape [4,2]");
  const TensorBuffer dropped = gather_nd(p, idx({n, 2}, rows), options(kDrop));
  const std::vector<double> v = values(dropped);
  EXPECT_EQ(v[0], 3);
  EXPECT_EQ(v[120001], 0);
  EXPECT_EQ(v[150000], 0);
  EXPECT_EQ(v[190000], 0);
  EXPECT_EQ(v[199999], 3);
}

TEST_P(GatherNd, S3_BatchedRowsAreNamedWithTheShapeTheyIndex) {
  const TensorBuffer p = make_f32({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(invalid_argument_text([&] {
              gather_nd(p, idx({2, 1}, {1, 3}), options(kError, 1));
            }),
            "indices[1] = [3] does not index into shape [3]");
  expect_gathered(gather_nd(p, idx({2, 1}, {1, 3}), options(kDrop, 1)), Shape{2}, {2, 0});
}

TEST_P(GatherNd, S3_RowsOfEmptySlicesAreCheckedToo) {
  const TensorBuffer p = make_f32({3, 0}, {});
  EXPECT_EQ(invalid_argument_text([&] {
              gather_nd(p, idx({2, 1}, {0, 5}), options());
            }),
            "indices[1] = [5] does not index into shape [3,0]");
  expect_gathered(gather_nd(p, idx({2, 1}, {0, 5}), options(kDrop)), Shape{2, 0}, {});
}

TEST_P(GatherNd, S3_DeepIndicesAreChecked) {
  // Depth 10, past the kernels' inline depth.
  const std::vector<std::int64_t> shape(10, 2);
  std::vector<double> p(1024);
  for (int i = 0; i < 1024; ++i) p[static_cast<std::size_t>(i)] = i;
  const TensorBuffer params = make(DataType::kInt32, Shape(shape), p);
  const std::vector<double> good = {1, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  std::vector<double> rows = good;
  rows.insert(rows.end(), {1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
  expect_gathered(gather_nd(params, idx({2, 10}, rows), options()), Shape{2}, {513, 1023});
  rows[19] = 2;
  EXPECT_EQ(invalid_argument_text([&] {
              gather_nd(params, idx({2, 10}, rows), options());
            }),
            "indices[1] = [1, 1, 1, 1, 1, 1, 1, 1, 1, 2] does not index into shape "
            "[2,2,2,2,2,2,2,2,2,2]");
  expect_gathered(gather_nd(params, idx({2, 10}, rows), options(kDrop)), Shape{2}, {513, 0});
}

TEST_P(GatherNd, DefaultPolicyIsTheDevicesOwn) {
  const TensorBuffer p = make_f32({3}, {1, 2, 3});
  const TensorBuffer i = idx({2, 1}, {2, 3});
  GatherOptions o = options();
  o.out_of_bounds = OutOfBoundsPolicy::kDeviceDefault;
  if (GetParam().is_cuda()) {
    expect_gathered(gather_nd(p, i, o), Shape{2}, {3, 0});
  } else {
    EXPECT_THROW(gather_nd(p, i, o), InvalidArgumentError);
  }
}

TEST_P(GatherNd, InputsAreNotModified) {
  const TensorBuffer p = make_f32({3}, {1, 2, 3});
  const TensorBuffer i = idx({2, 1}, {2, 0});
  (void)gather_nd(p, i, options());
  EXPECT_THROW(gather_nd(p, idx({1, 1}, {3}), options()), InvalidArgumentError);
  EXPECT_EQ(values(p), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(values(i), (std::vector<double>{2, 0}));
}

}  // namespace
}  // namespace tensorbuf
