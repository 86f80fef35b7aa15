// spec/tensor_scatter_nd.md: every rule and every public vector (T1-T23), on every device
// (CUDA instances skip without a GPU), with both out-of-bounds policies.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "scatter_nd/helpers.hpp"
#include "scatter_nd/spec_fixture.hpp"
#include "support/devices.hpp"

namespace tensorbuf {
namespace {

using testing::scatter::make;
using testing::scatter::make_indices;
using testing::scatter::Op;
using testing::scatter::same_values;
using testing::scatter::values_of;
using DT = DataType;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

class ScatterNdSpec : public testing::scatter::SpecFixture {};

std::vector<double> filled(std::size_t n, double v) { return std::vector<double>(n, v); }

TEST_P(ScatterNdSpec, T1_SubRank1) {
  expect_all(Op::kSub, make(DT::kInt32, filled(8, 1), {8}), make_indices({4, 3, 1, 7}, {4, 1}),
             make(DT::kInt32, {9, 10, 11, 12}, {4}),
             make(DT::kInt32, {1, -10, 1, -9, -8, 1, 1, -11}, {8}));
}

TEST_P(ScatterNdSpec, T2_SubSlices) {
  std::vector<double> one_update;
  for (double v : {5, 6, 7, 8})
    for (int i = 0; i < 4; ++i) one_update.push_back(v);
  std::vector<double> updates = one_update;
  updates.insert(updates.end(), one_update.begin(), one_update.end());
  std::vector<double> expected;
  for (int s = 0; s < 4; ++s) {
    for (double v : {-4, -5, -6, -7}) {
      for (int i = 0; i < 4; ++i) expected.push_back(s % 2 == 0 ? v : 1);
    }
  }
  expect_all(Op::kSub, make(DT::kInt32, filled(64, 1), {4, 4, 4}), make_indices({0, 2}, {2, 1}),
             make(DT::kInt32, updates, {2, 4, 4}), make(DT::kInt32, expected, {4, 4, 4}));
}

TEST_P(ScatterNdSpec, T3_DuplicatesCombine) {
  expect_all(Op::kSub, make(DT::kInt32, {10, 20, 30}, {3}), make_indices({1, 1, 0}, {3, 1}),
             make(DT::kInt32, {1, 2, 3}, {3}), make(DT::kInt32, {7, 17, 30}, {3}));
}

TEST_P(ScatterNdSpec, T4_FullDepth) {
  for (DT type : {DT::kInt32, DT::kFloat32}) {
    expect_all(Op::kSub, make(type, {1, 2, 3, 4}, {2, 2}), make_indices({0, 1, 1, 0}, {2, 2}),
               make(type, {10, 100}, {2}), make(type, {1, -8, -97, 4}, {2, 2}));
  }
}

TEST_P(ScatterNdSpec, T5_RowSlice) {
  expect_all(Op::kSub, make(DT::kInt32, {1, 1, 1, 2, 2, 2}, {2, 3}), make_indices({1}, {1, 1}),
             make(DT::kInt32, {1, 2, 3}, {1, 3}), make(DT::kInt32, {1, 1, 1, 1, 0, -1}, {2, 3}));
}

TEST_P(ScatterNdSpec, T6_BadRowNamed) {
  expect_error(Op::kSub, make(DT::kFloat32, filled(15, 0), {5, 3}),
               make_indices({0, 99, 4}, {3, 1}), make(DT::kFloat32, filled(9, 1), {3, 3}),
               options(OutOfBoundsPolicy::kError),
               "indices[1] = [99] does not index into shape [5,3]");
}

TEST_P(ScatterNdSpec, T6_DefaultPolicyIsErrorOnCpuDropOnCuda) {
  TensorBuffer tensor = make(DT::kFloat32, filled(15, 0), {5, 3});
  TensorBuffer indices = make_indices({0, 99, 4}, {3, 1});
  TensorBuffer updates = make(DT::kFloat32, filled(9, 1), {3, 3});
  if (GetParam().is_cuda()) {
    TensorBuffer out = tensor_scatter_nd_sub(tensor, indices, updates, options());
    std::vector<double> expected = filled(15, 0);
    for (int i : {0, 1, 2, 12, 13, 14}) expected[static_cast<std::size_t>(i)] = -1;
    EXPECT_EQ(values_of(out), expected);
  } else {
    expect_error(Op::kSub, tensor, indices, updates, options(),
                 "indices[1] = [99] does not index into shape [5,3]");
  }
}

TEST_P(ScatterNdSpec, T7_NegativeIndexIsBad) {
  expect_error(Op::kSub, make(DT::kFloat32, filled(5, 0), {5}), make_indices({-1}, {1, 1}),
               make(DT::kFloat32, {1}, {1}), options(OutOfBoundsPolicy::kError),
               "indices[0] = [-1] does not index into shape [5]");
}

TEST_P(ScatterNdSpec, T8_DropSkipsBadRows) {
  for (bool deterministic : {false, true}) {
    for (DT index_type : {DT::kInt32, DT::kInt64}) {
      TensorBuffer out = tensor_scatter_nd_sub(
          make(DT::kFloat32, filled(5, 0), {5}), make_indices({0, 5, 2, -1}, {4, 1}, index_type),
          make(DT::kFloat32, {1, 2, 3, 4}, {4}), options(OutOfBoundsPolicy::kDrop, deterministic));
      EXPECT_EQ(values_of(out), (std::vector<double>{-1, 0, -3, 0, 0}));
      TensorBuffer target = make(DT::kFloat32, filled(5, 0), {5});
      tensor_scatter_nd_sub_in_place(target, make_indices({0, 5, 2, -1}, {4, 1}, index_type),
                                     make(DT::kFloat32, {1, 2, 3, 4}, {4}),
                                     options(OutOfBoundsPolicy::kDrop, deterministic));
      EXPECT_EQ(values_of(target), (std::vector<double>{-1, 0, -3, 0, 0}));
    }
  }
}

TEST_P(ScatterNdSpec, T9_FirstBadRowIsNamed) {
  for (bool deterministic : {false, true}) {
    expect_error(Op::kSub, make(DT::kFloat32, filled(5, 0), {5}), make_indices({7, 0, -1}, {3, 1}),
                 make(DT::kFloat32, {1, 2, 3}, {3}),
                 options(OutOfBoundsPolicy::kError, deterministic),
                 "indices[0] = [7] does not index into shape [5]");
  }
}

TEST_P(ScatterNdSpec, T10_BatchPositionIsUnflattened) {
  expect_error(Op::kSub, make(DT::kFloat32, filled(4, 0), {4}),
               make_indices({0, 1, 9, 2}, {2, 2, 1}), make(DT::kFloat32, filled(4, 1), {2, 2}),
               options(OutOfBoundsPolicy::kError),
               "indices[1,0] = [9] does not index into shape [4]");
}

TEST_P(ScatterNdSpec, T11_ComponentsListed) {
  expect_error(Op::kSub, make(DT::kFloat32, filled(6, 0), {2, 3}), make_indices({0, 5}, {1, 2}),
               make(DT::kFloat32, {1}, {1}), options(OutOfBoundsPolicy::kError),
               "indices[0] = [0, 5] does not index into shape [2,3]");
}

TEST_P(ScatterNdSpec, T12_UpdatesShapeMismatch) {
  expect_error(Op::kSub, make(DT::kInt32, {1, 2, 3, 4}, {4}), make_indices({1, 2}, {2, 1}),
               make(DT::kInt32, {1, 2, 3}, {3}), options(), "");
  try {
    tensor_scatter_nd_sub(make(DT::kInt32, {1, 2, 3, 4}, {4}), make_indices({1, 2}, {2, 1}),
                          make(DT::kInt32, {1, 2, 3}, {3}), options());
  } catch (const InvalidArgumentError& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("[3]"), std::string::npos) << text;  // updates' shape
    EXPECT_NE(text.find("[2]"), std::string::npos) << text;  // the expected shape
  }
}

TEST_P(ScatterNdSpec, T13_SliceShapeMismatch) {
  expect_error(Op::kSub, make(DT::kFloat32, filled(12, 0), {4, 3}), make_indices({1}, {1, 1}),
               make(DT::kFloat32, {1, 2}, {1, 2}), options(), "");
}

TEST_P(ScatterNdSpec, T14_DepthAboveRank) {
  expect_error(Op::kSub, make(DT::kInt32, {1, 2, 3, 4}, {4}), make_indices({1, 2}, {1, 2}),
               make(DT::kInt32, {5}, {1}), options(), "");
}

TEST_P(ScatterNdSpec, T15_ScalarIndices) {
  expect_error(Op::kSub, make(DT::kInt32, {1, 2, 3, 4}, {4}), make_indices({1}, Shape{}),
               make(DT::kInt32, {5}, {1}), options(), "");
}

TEST_P(ScatterNdSpec, T16_NoRowsReturnsACopy) {
  expect_all(Op::kSub, make(DT::kInt32, {1, 2, 3}, {3}), make_indices({}, {0, 1}),
             make(DT::kInt32, {}, {0}), make(DT::kInt32, {1, 2, 3}, {3}));
}

TEST_P(ScatterNdSpec, T17_Uint8Wraps) {
  expect_all(Op::kSub, make(DT::kUInt8, {0}, {1}), make_indices({0}, {1, 1}),
             make(DT::kUInt8, {1}, {1}), make(DT::kUInt8, {255}, {1}));
}

TEST_P(ScatterNdSpec, T18_UpdatesWithFewerDims) {
  expect_error(Op::kSub, make(DT::kFloat32, filled(8, 1), {8}),
               make_indices({0, 0, 0, 0}, {4, 1, 1}), make(DT::kFloat32, filled(4, 0), {4}),
               options(), "");
}

TEST_P(ScatterNdSpec, T19_Rank1IndicesIsOneIndex) {
  std::vector<double> expected = filled(12, 0);
  for (int i = 6; i < 9; ++i) expected[static_cast<std::size_t>(i)] = -1;
  expect_all(Op::kSub, make(DT::kFloat32, filled(12, 0), {4, 3}), make_indices({2}, {1}),
             make(DT::kFloat32, {1, 1, 1}, {3}), make(DT::kFloat32, expected, {4, 3}));
}

// Torch-style [n] indices meant as n rows: the error raised anyway names the fix.
TEST_P(ScatterNdSpec, T19_Rank1IndicesHintWhenDepthAboveRank) {
  expect_error(Op::kSub, make(DT::kInt32, {1, 2, 3, 4}, {4}), make_indices({0, 1, 2}, {3}),
               make(DT::kInt32, {5, 6, 7}, {3}), options(),
               "tensor_scatter_nd_sub: index depth indices.shape[-1] = 3 must be between 1 and "
               "the tensor rank 1 (indices shape [3], tensor shape [4]); indices of shape [n] "
               "are one index; use indices[:, None] for n rows");
}

TEST_P(ScatterNdSpec, T19_Rank1IndicesHintWhenUpdatesHaveRows) {
  expect_error(Op::kSub, make(DT::kFloat32, filled(12, 0), {4, 3}), make_indices({0, 1}, {2}),
               make(DT::kFloat32, filled(6, 1), {2, 3}), options(),
               "tensor_scatter_nd_sub: updates shape [2,3] does not match indices.shape[:-1] + "
               "tensor.shape[2:] = [] + [] = [] (indices shape [2], tensor shape [4,3]); "
               "indices of shape [n] are one index; use indices[:, None] for n rows");
}

// No hint where updates do not have the n rows indices[:, None] would need.
TEST_P(ScatterNdSpec, T19_Rank1IndicesNoHintOtherwise) {
  expect_error(Op::kSub, make(DT::kInt32, {1, 2, 3, 4}, {4}), make_indices({0, 1, 2}, {3}),
               make(DT::kInt32, {5, 6}, {2}), options(),
               "tensor_scatter_nd_sub: index depth indices.shape[-1] = 3 must be between 1 and "
               "the tensor rank 1 (indices shape [3], tensor shape [4])");
}

TEST_P(ScatterNdSpec, T20_Siblings) {
  TensorBuffer tensor = make(DT::kInt32, {5, 5, 5}, {3});
  TensorBuffer indices = make_indices({0, 2, 0}, {3, 1});
  TensorBuffer updates = make(DT::kInt32, {1, 9, 3}, {3});
  expect_all(Op::kAdd, tensor, indices, updates, make(DT::kInt32, {9, 5, 14}, {3}));
  expect_all(Op::kMin, tensor, indices, updates, make(DT::kInt32, {1, 5, 5}, {3}));
  expect_all(Op::kMax, tensor, indices, updates, make(DT::kInt32, {5, 5, 9}, {3}));
  TensorBuffer expected_update = make(DT::kInt32, {3, 5, 9}, {3});
  if (!GetParam().is_cuda()) {
    expect_all(Op::kUpdate, tensor, indices, updates, expected_update);
  } else {
    // CUDA keeps one of the duplicates, the last one when deterministic.
    TensorBuffer out =
        tensor_scatter_nd_update(tensor, indices, updates, options(OutOfBoundsPolicy::kDrop, true));
    EXPECT_TRUE(same_values(out, expected_update));
    const std::vector<double> any =
        values_of(tensor_scatter_nd_update(tensor, indices, updates, options()));
    EXPECT_TRUE(any[0] == 1 || any[0] == 3);
    EXPECT_EQ(any[1], 5);
    EXPECT_EQ(any[2], 9);
  }
}

TEST_P(ScatterNdSpec, T21_Rank1IndicesMessageHasNoPosition) {
  expect_error(Op::kSub, make(DT::kFloat32, filled(12, 0), {4, 3}), make_indices({9}, {1}),
               make(DT::kFloat32, {1, 1, 1}, {3}), options(OutOfBoundsPolicy::kError),
               "indices = [9] does not index into shape [4,3]");
}

TEST_P(ScatterNdSpec, T22_EmptySliceIsInBounds) {
  expect_all(Op::kSub, make(DT::kFloat32, {}, {3, 0}), make_indices({1}, {1, 1}),
             make(DT::kFloat32, {}, {1, 0}), make(DT::kFloat32, {}, {3, 0}));
}

TEST_P(ScatterNdSpec, T22_EmptyTensorMakesEveryIndexBad) {
  expect_error(Op::kSub, make(DT::kFloat32, {}, {0}), make_indices({0}, {1, 1}),
               make(DT::kFloat32, {1}, {1}), options(OutOfBoundsPolicy::kError),
               "indices[0] = [0] does not index into shape [0]");
  TensorBuffer out =
      tensor_scatter_nd_sub(make(DT::kFloat32, {}, {0}), make_indices({0}, {1, 1}),
                            make(DT::kFloat32, {1}, {1}), options(OutOfBoundsPolicy::kDrop));
  EXPECT_EQ(out.shape(), Shape{0});
  // A bad row in a [3, 0] tensor is still bad.
  expect_error(Op::kSub, make(DT::kFloat32, {}, {3, 0}), make_indices({3}, {1, 1}),
               make(DT::kFloat32, {}, {1, 0}), options(OutOfBoundsPolicy::kError),
               "indices[0] = [3] does not index into shape [3,0]");
}

TEST_P(ScatterNdSpec, T23_MinPropagatesNaN) {
  expect_all(Op::kMin, make(DT::kFloat32, {1.0, kNaN}, {2}), make_indices({0, 1}, {2, 1}),
             make(DT::kFloat32, {kNaN, 0.0}, {2}), make(DT::kFloat32, {kNaN, kNaN}, {2}));
  expect_all(Op::kMax, make(DT::kFloat32, {1.0, kNaN}, {2}), make_indices({0, 1}, {2, 1}),
             make(DT::kFloat32, {kNaN, 0.0}, {2}), make(DT::kFloat32, {kNaN, kNaN}, {2}));
}

// The error vectors under the other policy: the bad rows are skipped, the others applied.
TEST_P(ScatterNdSpec, ErrorVectorsUnderDrop) {
  auto drop = [&](const TensorBuffer& tensor, const TensorBuffer& indices,
                  const TensorBuffer& updates, const std::vector<double>& expected) {
    for (bool deterministic : {false, true}) {
      TensorBuffer out = tensor_scatter_nd_sub(tensor, indices, updates,
                                               options(OutOfBoundsPolicy::kDrop, deterministic));
      EXPECT_EQ(values_of(out), expected);
      TensorBuffer target = tensor.clone();
      tensor_scatter_nd_sub_in_place(target, indices, updates,
                                     options(OutOfBoundsPolicy::kDrop, deterministic));
      EXPECT_EQ(values_of(target), expected);
    }
  };
  std::vector<double> t6 = filled(15, 0);
  for (int i : {0, 1, 2, 12, 13, 14}) t6[static_cast<std::size_t>(i)] = -1;
  drop(make(DT::kFloat32, filled(15, 0), {5, 3}), make_indices({0, 99, 4}, {3, 1}),
       make(DT::kFloat32, filled(9, 1), {3, 3}), t6);  // T6
  drop(make(DT::kFloat32, filled(5, 0), {5}), make_indices({-1}, {1, 1}),
       make(DT::kFloat32, {1}, {1}), filled(5, 0));  // T7
  drop(make(DT::kFloat32, filled(5, 0), {5}), make_indices({7, 0, -1}, {3, 1}),
       make(DT::kFloat32, {1, 2, 3}, {3}), {-2, 0, 0, 0, 0});  // T9
  drop(make(DT::kFloat32, filled(4, 0), {4}), make_indices({0, 1, 9, 2}, {2, 2, 1}),
       make(DT::kFloat32, filled(4, 1), {2, 2}), {-1, -1, -1, 0});  // T10
  drop(make(DT::kFloat32, filled(6, 0), {2, 3}), make_indices({0, 5}, {1, 2}),
       make(DT::kFloat32, {1}, {1}), filled(6, 0));  // T11
  drop(make(DT::kFloat32, filled(12, 0), {4, 3}), make_indices({9}, {1}),
       make(DT::kFloat32, {1, 1, 1}, {3}), filled(12, 0));  // T21
}

// ---- rules beyond the vectors ----

TEST_P(ScatterNdSpec, Rule1_Dtypes) {
  // bool only for update.
  TensorBuffer flags = make(DT::kBool, {0, 1, 0}, {3});
  expect_all(Op::kUpdate, flags, make_indices({0, 1}, {2, 1}), make(DT::kBool, {1, 0}, {2}),
             make(DT::kBool, {1, 0, 0}, {3}));
  for (Op op : testing::scatter::numeric_ops()) {
    expect_error(op, flags, make_indices({0}, {1, 1}), make(DT::kBool, {1}, {1}), options(), "");
  }
  // Float indices; updates of another dtype.
  expect_error(Op::kSub, make(DT::kFloat32, {1, 2}, {2}), make(DT::kFloat32, {0}, {1, 1}),
               make(DT::kFloat32, {1}, {1}), options(), "");
  expect_error(Op::kSub, make(DT::kFloat32, {1, 2}, {2}), make_indices({0}, {1, 1}),
               make(DT::kFloat64, {1}, {1}), options(), "");
  // A scalar tensor.
  expect_error(Op::kSub, make(DT::kFloat32, {1}, Shape{}), make_indices({0}, {1, 1}),
               make(DT::kFloat32, {1}, {1}), options(), "");
}

TEST_P(ScatterNdSpec, Rule1_EveryNumericDtype) {
  for (DT type : {DT::kUInt8, DT::kInt8, DT::kInt16, DT::kInt32, DT::kInt64, DT::kFloat16,
                  DT::kBFloat16, DT::kFloat32, DT::kFloat64}) {
    SCOPED_TRACE(to_string(type));
    TensorBuffer tensor = make(type, {5, 5, 5}, {3});
    TensorBuffer indices = make_indices({0, 2, 0}, {3, 1}, DT::kInt64);
    TensorBuffer updates = make(type, {1, 9, 3}, {3});
    expect_all(Op::kSub, tensor, indices, updates,
               make(type, {1, 5, type == DT::kUInt8 ? 252.0 : -4.0}, {3}));
    expect_all(Op::kAdd, tensor, indices, updates, make(type, {9, 5, 14}, {3}));
    expect_all(Op::kMin, tensor, indices, updates, make(type, {1, 5, 5}, {3}));
    expect_all(Op::kMax, tensor, indices, updates, make(type, {5, 5, 9}, {3}));
  }
}

TEST_P(ScatterNdSpec, Rule2_DepthZero) {
  expect_error(Op::kSub, make(DT::kFloat32, {1, 2}, {2}), make_indices({}, {2, 0}),
               make(DT::kFloat32, {1, 2, 1, 2}, {2, 2}), options(), "");
}

TEST_P(ScatterNdSpec, Rule2_AnyDepth) {
  // Rank 10, depth 10 (beyond TF's 7, beyond the kernels' inline depth 8).
  const Shape shape({2, 1, 2, 1, 2, 1, 2, 1, 2, 3});
  std::vector<double> zeros = filled(static_cast<std::size_t>(shape.num_elements()), 0);
  std::vector<double> expected = zeros;
  expected[static_cast<std::size_t>(shape.num_elements() - 1)] = -7;
  expected[1] = -2;
  expect_all(Op::kSub, make(DT::kFloat64, zeros, shape),
             make_indices({1, 0, 1, 0, 1, 0, 1, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, {2, 10}),
             make(DT::kFloat64, {7, 2}, {2}), make(DT::kFloat64, expected, shape));
  expect_error(Op::kSub, make(DT::kFloat64, zeros, shape),
               make_indices({1, 0, 1, 0, 1, 0, 1, 0, 1, 3}, {1, 10}), make(DT::kFloat64, {7}, {1}),
               options(OutOfBoundsPolicy::kError),
               "indices[0] = [1, 0, 1, 0, 1, 0, 1, 0, 1, 3] does not index into shape "
               "[2,1,2,1,2,1,2,1,2,3]");
}

TEST_P(ScatterNdSpec, Rule6_IntegerWrap) {
  expect_all(Op::kAdd, make(DT::kInt8, {127, -128}, {2}), make_indices({0, 1}, {2, 1}),
             make(DT::kInt8, {1, -1}, {2}), make(DT::kInt8, {-128, 127}, {2}));
  TensorBuffer big = TensorBuffer::create_fixed_size({1}, DT::kInt64);
  big.mutable_host<std::int64_t>()[0] = std::numeric_limits<std::int64_t>::min();
  TensorBuffer one = TensorBuffer::create_fixed_size({1}, DT::kInt64);
  one.mutable_host<std::int64_t>()[0] = 1;
  TensorBuffer out = tensor_scatter_nd_sub(big, make_indices({0}, {1, 1}), one, options());
  EXPECT_EQ(out.host<std::int64_t>()[0], std::numeric_limits<std::int64_t>::max());
  TensorBuffer i32 = make(DT::kInt32, {2147483647.0}, {1});
  EXPECT_EQ(values_of(tensor_scatter_nd_add(i32, make_indices({0}, {1, 1}),
                                            make(DT::kInt32, {1}, {1}), options()))[0],
            -2147483648.0);
}

TEST_P(ScatterNdSpec, Rule6_HalfAccumulatesInItsOwnType) {
  // 2048 + 1 is not representable in float16 (rounds back to 2048, to even): adding 1 four
  // times leaves 2048; a float accumulator would give 2052.
  expect_all(Op::kAdd, make(DT::kFloat16, {2048}, {1}), make_indices({0, 0, 0, 0}, {4, 1}),
             make(DT::kFloat16, {1, 1, 1, 1}, {4}), make(DT::kFloat16, {2048}, {1}));
  // bfloat16: 256 + 1 rounds to 256.
  expect_all(Op::kAdd, make(DT::kBFloat16, {256}, {1}), make_indices({0, 0}, {2, 1}),
             make(DT::kBFloat16, {1, 1}, {2}), make(DT::kBFloat16, {256}, {1}));
}

TEST_P(ScatterNdSpec, Rule5_UpdateDuplicatesKeepLastOnCpu) {
  if (GetParam().is_cuda()) GTEST_SKIP() << "CUDA keeps any one (last when deterministic)";
  expect_all(Op::kUpdate, make(DT::kFloat32, {0, 0}, {2}), make_indices({1, 1, 1}, {3, 1}),
             make(DT::kFloat32, {1, 2, 3}, {3}), make(DT::kFloat32, {0, 3}, {2}));
}

TEST_P(ScatterNdSpec, Rule1_InPlaceWithAliasedUpdates) {
  // updates is the tensor itself: rows read the values from before the op.
  TensorBuffer tensor = make(DT::kInt32, {1, 2, 3, 4}, {4});
  tensor_scatter_nd_add_in_place(tensor, make_indices({1, 2, 3, 0}, {4, 1}), tensor, options());
  EXPECT_EQ(values_of(tensor), (std::vector<double>{5, 3, 5, 7}));
}

TEST_P(ScatterNdSpec, Rule7_DropReportsNothing) {
  TensorBuffer out = tensor_scatter_nd_max(
      make(DT::kInt16, {0, 0}, {2}), make_indices({-5, 1, 2}, {3, 1}, DT::kInt64),
      make(DT::kInt16, {3, 4, 5}, {3}), options(OutOfBoundsPolicy::kDrop));
  EXPECT_EQ(values_of(out), (std::vector<double>{0, 4}));
}

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(ScatterNdSpec);

}  // namespace
}  // namespace tensorbuf
