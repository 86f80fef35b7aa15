// boolean_mask_update: the rules and public vectors B1-B16 of spec/boolean_mask_update.md, on
// every device (CUDA instances skip without a GPU).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "boolean_mask_update/spec_fixture.hpp"
#include "support/devices.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

// The helpers and the fixture (spec_fixture.hpp).
using namespace testing::mask_update;  // NOLINT(google-build-using-namespace)

// --- public vectors ---

TEST_P(BooleanMaskUpdate, B1_FirstRowEveryUpdatesForm) {
  const TensorBuffer t = make_f32({3, 3}, {0, 0, 0, 1, 1, 1, 2, 2, 2});
  const TensorBuffer m = make_mask({3}, {1, 0, 0});
  const std::vector<double> expected = {-1, -1, -1, 1, 1, 1, 2, 2, 2};
  expect_result(t, m, make_f32({1, 3}, {-1, -1, -1}), options(), expected);
  expect_result(t, m, make_f32({3}, {-1, -1, -1}), options(), expected);
  expect_result(t, m, make_f32({}, {-1}), options(), expected);
}

TEST_P(BooleanMaskUpdate, B2_Axis2) {
  const TensorBuffer t = make_f32({1, 1, 10}, iota(10));
  const TensorBuffer m = make_mask({10}, {1, 1, 0, 0, 1, 1, 1, 0, 0, 0});
  const std::vector<double> expected = {-1, -1, 2, 3, -1, -1, -1, 7, 8, 9};
  expect_result(t, m, make_f32({5}, {-1, -1, -1, -1, -1}), options(2), expected);
  expect_result(t, m, make_f32({}, {-1}), options(2), expected);
}

TEST_P(BooleanMaskUpdate, B3_UpdatesInMaskOrder) {
  expect_result(make_f32({4}, {1, 2, 3, 4}), make_mask({4}, {0, 1, 0, 1}), make_f32({2}, {-1, 2}),
                options(), {1, -1, 3, 2});
}

TEST_P(BooleanMaskUpdate, B4_ScalarMask) {
  expect_invalid(make_f32({3}, {1, 2, 3}), make_mask({}, {1}), make_f32({}, {0}), options(),
                 "Mask cannot be a scalar.");
}

TEST_P(BooleanMaskUpdate, B5_MaskShapeMismatch) {
  expect_invalid(make_f32({3, 3}, iota(9)), make_mask({2}, {1, 0}), make_f32({}, {0}), options(),
                 "Mask shape [2] is not compatible with the required mask shape: [3].");
}

TEST_P(BooleanMaskUpdate, B6_AxisBeyondRank) {
  expect_invalid(make_f32({2, 3}, iota(6)), make_mask({3}, {1, 0, 1}), make_f32({}, {0}),
                 options(2),
                 "Axis 2 is out of range for a tensor of rank 2 and a mask of rank 1 (need 0 <= "
                 "axis and axis + 1 <= 2).");
}

TEST_P(BooleanMaskUpdate, B7_Axis1UpdatesEveryLeadingSlice) {
  const TensorBuffer t = make_f32({2, 3}, {1, 2, 3, 4, 5, 6});
  const TensorBuffer m = make_mask({3}, {1, 0, 1});
  expect_result(t, m, make_f32({}, {0}), options(1), {0, 2, 0, 0, 5, 0});
  expect_result(t, m, make_f32({}, {0}), options(-1), {0, 2, 0, 0, 5, 0});
}

TEST_P(BooleanMaskUpdate, B8_Axis1FullTarget) {
  expect_result(make_f32({2, 3}, {1, 2, 3, 4, 5, 6}), make_mask({3}, {1, 0, 1}),
                make_f32({2, 2}, {7, 8, 9, 10}), options(1), {7, 2, 8, 9, 5, 10});
}

TEST_P(BooleanMaskUpdate, B9_NoTrueEntriesScalarUpdates) {
  expect_result(make_f32({3}, {1, 2, 3}), make_mask({3}, {0, 0, 0}), make_f32({}, {9}), options(),
                {1, 2, 3});
}

TEST_P(BooleanMaskUpdate, B10_NoTrueEntriesTooManyUpdates) {
  expect_invalid(make_f32({3}, {1, 2, 3}), make_mask({3}, {0, 0, 0}), make_f32({2}, {7, 8}),
                 options(), "Incompatible shapes: [2] vs. [0]");
}

TEST_P(BooleanMaskUpdate, B11_TwoDimensionalMask) {
  expect_result(make_f32({2, 2}, {1, 2, 3, 4}), make_mask({2, 2}, {1, 0, 0, 1}), make_f32({}, {0}),
                options(), {0, 2, 3, 0});
}

TEST_P(BooleanMaskUpdate, B12_NoBroadcastNeedsExactTarget) {
  const TensorBuffer t = make_f32({2, 2, 3}, std::vector<double>(12, 0));
  const TensorBuffer m = make_mask({2, 2}, {1, 0, 0, 1});
  const TensorBuffer u = make_f32({3}, {1, 2, 3});
  expect_invalid(t, m, u, options(0, false));
  expect_result(t, m, u, options(0, true), {1, 2, 3, 0, 0, 0, 0, 0, 0, 1, 2, 3});
}

TEST_P(BooleanMaskUpdate, B13_NoBroadcastExactTarget) {
  expect_result(make_f32({2, 2, 3}, std::vector<double>(12, 0)), make_mask({2, 2}, {1, 0, 0, 1}),
                make_f32({2, 3}, {1, 2, 3, 4, 5, 6}), options(0, false),
                {1, 2, 3, 0, 0, 0, 0, 0, 0, 4, 5, 6});
}

TEST_P(BooleanMaskUpdate, B14_NegativeAxisBeforeStart) {
  expect_invalid(make_f32({2, 3}, iota(6)), make_mask({2}, {1, 0}), make_f32({}, {0}), options(-3),
                 "Axis -3 is out of range for a tensor of rank 2 and a mask of rank 1 (need 0 <= "
                 "axis and axis + 1 <= 2).");
  // Far out on either side; the message names the axis as the caller gave it.
  expect_invalid(make_f32({2, 3}, iota(6)), make_mask({2}, {1, 0}), make_f32({}, {0}),
                 options(-100),
                 "Axis -100 is out of range for a tensor of rank 2 and a mask of rank 1 (need 0 <= "
                 "axis and axis + 1 <= 2).");
  expect_invalid(make_f32({2, 3}, iota(6)), make_mask({3}, {1, 0, 1}), make_f32({}, {0}),
                 options(7),
                 "Axis 7 is out of range for a tensor of rank 2 and a mask of rank 1 (need 0 <= "
                 "axis and axis + 1 <= 2).");
}

TEST_P(BooleanMaskUpdate, B15_RowsRepeatedOverLeadingDim) {
  expect_result(make_f32({2, 3, 2}, std::vector<double>(12, 0)), make_mask({3}, {0, 1, 1}),
                make_f32({2, 2}, {1, 2, 3, 4}), options(1), {0, 0, 1, 2, 3, 4, 0, 0, 1, 2, 3, 4});
}

TEST_P(BooleanMaskUpdate, B16_NoBroadcastIncludesLeadingDims) {
  expect_invalid(
      make_f32({2, 3, 2}, std::vector<double>(12, 0)), make_mask({3}, {0, 1, 1}),
      make_f32({2, 2}, {1, 2, 3, 4}), options(1, false),
      "Updates shape [2,2] is not equal to the target shape [2,2,2] (broadcast = false).");
}

// --- rules ---

TEST_P(BooleanMaskUpdate, Rule2_MaskMustBeBool) {
  expect_invalid(make_f32({3}, {1, 2, 3}), make(DataType::kUInt8, {3}, {1, 0, 1}),
                 make_f32({}, {0}), options(), "Mask must be of dtype bool, got uint8.");
}

TEST_P(BooleanMaskUpdate, Rule2_UpdatesDtypeMustMatch) {
  expect_invalid(make_f32({3}, {1, 2, 3}), make_mask({3}, {1, 0, 1}),
                 make(DataType::kInt32, {}, {0}), options(),
                 "Updates dtype int32 does not match the tensor dtype float32.");
}

TEST_P(BooleanMaskUpdate, Rule3_NegativeAxisCountsFromTheEnd) {
  const TensorBuffer t = make_f32({2, 2, 2}, iota(8));
  const TensorBuffer m = make_mask({2, 2}, {0, 1, 1, 0});
  expect_result(t, m, make_f32({2}, {-1, -2}), options(-2), {0, -1, -2, 3, 4, -1, -2, 7});
  // -1 -> 2: a rank-2 mask from dim 2 ends past the rank.
  expect_invalid(t, m, make_f32({}, {0}), options(-1),
                 "Axis -1 is out of range for a tensor of rank 3 and a mask of rank 2 (need 0 <= "
                 "axis and axis + 2 <= 3).");
  expect_invalid(t, m, make_f32({}, {0}), options(2),
                 "Axis 2 is out of range for a tensor of rank 3 and a mask of rank 2 (need 0 <= "
                 "axis and axis + 2 <= 3).");
  expect_invalid(t, m, make_f32({}, {0}), options(-100),
                 "Axis -100 is out of range for a tensor of rank 3 and a mask of rank 2 (need 0 <= "
                 "axis and axis + 2 <= 3).");
  // -3 -> 0, the first valid axis: the [2,2] mask covers dims 0..1.
  expect_result(t, m, make_f32({}, {-9}), options(-3), {0, 1, -9, -9, -9, -9, 6, 7});
  // -4 is one before it.
  expect_invalid(t, m, make_f32({}, {0}), options(-4),
                 "Axis -4 is out of range for a tensor of rank 3 and a mask of rank 2 (need 0 <= "
                 "axis and axis + 2 <= 3).");
}

TEST_P(BooleanMaskUpdate, Rule3_ScalarTensorHasNoAxis) {
  expect_invalid(make_f32({}, {1}), make_mask({1}, {1}), make_f32({}, {0}), options(),
                 "Axis 0 is out of range for a tensor of rank 0 and a mask of rank 1 (need 0 <= "
                 "axis and axis + 1 <= 0).");
}

TEST_P(BooleanMaskUpdate, Rule4_MaskShapeOfTwoDims) {
  expect_invalid(make_f32({2, 3}, iota(6)), make_mask({3, 2}, {1, 0, 1, 0, 1, 0}),
                 make_f32({}, {0}), options(),
                 "Mask shape [3,2] is not compatible with the required mask shape: [2,3].");
}

TEST_P(BooleanMaskUpdate, Rule5_MaskOverMiddleDims) {
  // tensor [2, 2, 2, 2], mask over dims 1..2, updates [n] + trailing repeated over dim 0.
  const TensorBuffer t = make_f32({2, 2, 2, 2}, iota(16));
  const TensorBuffer m = make_mask({2, 2}, {1, 0, 0, 1});
  expect_result(t, m, make_f32({2, 2}, {-1, -2, -3, -4}), options(1),
                {-1, -2, 2, 3, 4, 5, -3, -4, -1, -2, 10, 11, 12, 13, -3, -4});
  // Full target [2, n=2, 2].
  expect_result(t, m, make_f32({2, 2, 2}, {-1, -2, -3, -4, -5, -6, -7, -8}), options(1, false),
                {-1, -2, 2, 3, 4, 5, -3, -4, -5, -6, 10, 11, 12, 13, -7, -8});
}

TEST_P(BooleanMaskUpdate, Rule6_SizeOneDimsBroadcast) {
  const TensorBuffer t = make_f32({2, 3, 2}, std::vector<double>(12, 0));
  const TensorBuffer m = make_mask({3}, {1, 0, 1});
  // [2, 1, 1]: one value per leading index.
  expect_result(t, m, make_f32({2, 1, 1}, {5, 6}), options(1),
                {5, 5, 0, 0, 5, 5, 6, 6, 0, 0, 6, 6});
  // [1, 2]: trailing row for every (o, j).
  expect_result(t, m, make_f32({1, 2}, {7, 8}), options(1), {7, 8, 0, 0, 7, 8, 7, 8, 0, 0, 7, 8});
  // [2, 1]: one value per j, trailing broadcast.
  expect_result(t, m, make_f32({2, 1}, {1, 2}), options(1), {1, 1, 0, 0, 2, 2, 1, 1, 0, 0, 2, 2});
  // Leading size-1 dims beyond the target's rank are dropped (NumPy).
  expect_result(t, m, make_f32({1, 1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}), options(1),
                {1, 2, 0, 0, 3, 4, 5, 6, 0, 0, 7, 8});
}

TEST_P(BooleanMaskUpdate, Rule6_NotBroadcastable) {
  const TensorBuffer t = make_f32({2, 3, 2}, std::vector<double>(12, 0));
  const TensorBuffer m = make_mask({3}, {1, 0, 1});
  expect_invalid(t, m, make_f32({3}, {1, 2, 3}), options(1),
                 "Incompatible shapes: [3] vs. [2,2,2]");
  expect_invalid(t, m, make_f32({3, 2}, iota(6)), options(1),
                 "Incompatible shapes: [3,2] vs. [2,2,2]");
  expect_invalid(t, m, make_f32({3, 2, 2}, iota(12)), options(1));
  expect_invalid(t, m, make_f32({2, 1, 2, 2}, iota(8)), options(1));
}

TEST_P(BooleanMaskUpdate, Rule6_NoBroadcastRejectsScalarAndSizeOne) {
  const TensorBuffer t = make_f32({3}, {1, 2, 3});
  const TensorBuffer m = make_mask({3}, {0, 1, 0});
  expect_invalid(t, m, make_f32({}, {0}), options(0, false));
  expect_result(t, m, make_f32({1}, {9}), options(0, false), {1, 9, 3});
  expect_invalid(make_f32({3}, {1, 2, 3}), make_mask({3}, {1, 1, 0}), make_f32({1}, {9}),
                 options(0, false),
                 "Updates shape [1] is not equal to the target shape [2] (broadcast = false).");
}

TEST_P(BooleanMaskUpdate, Rule7_NoTrueEntries) {
  const TensorBuffer t = make_f32({2, 3}, iota(6));
  const TensorBuffer m = make_mask({3}, {0, 0, 0});
  expect_result(t, m, make_f32({1}, {9}), options(1), iota(6));
  expect_result(t, m, make_f32({2, 1}, {9, 9}), options(1), iota(6));
  expect_result(t, m, make_f32({2, 0}, {}), options(1, false), iota(6));
  expect_invalid(t, m, make_f32({2, 1}, {9, 9}), options(1, false));
  expect_invalid(t, m, make_f32({3}, {1, 2, 3}), options(1), "Incompatible shapes: [3] vs. [2,0]");
}

// docs/boolean_mask_update.md: the checks run in the order scalar mask, mask dtype, updates
// dtype, axis, mask shape, updates shape. For each adjacent pair, inputs that break both raise
// the earlier check's text; with the earlier fault removed, the same inputs raise the later one
// (so they do break it).
TEST_P(BooleanMaskUpdate, ChecksRunInTheDocumentedOrder) {
  const TensorBuffer t = make_f32({2, 3}, iota(6));
  const TensorBuffer scalar = make_f32({}, {0});
  const TensorBuffer wrong_type_updates = make(DataType::kInt32, {}, {0});
  const std::string axis5 =
      "Axis 5 is out of range for a tensor of rank 2 and a mask of rank 1 (need 0 <= axis and "
      "axis + 1 <= 2).";
  // Scalar mask (of uint8) before mask dtype.
  expect_invalid(t, make(DataType::kUInt8, {}, {1}), scalar, options(), "Mask cannot be a scalar.");
  // Mask dtype before updates dtype.
  expect_invalid(t, make(DataType::kUInt8, {2}, {1, 0}), wrong_type_updates, options(),
                 "Mask must be of dtype bool, got uint8.");
  expect_invalid(t, make(DataType::kUInt8, {2}, {1, 0}), scalar, options(),
                 "Mask must be of dtype bool, got uint8.");
  // Updates dtype before axis.
  expect_invalid(t, make_mask({2}, {1, 0}), wrong_type_updates, options(5),
                 "Updates dtype int32 does not match the tensor dtype float32.");
  expect_invalid(t, make_mask({2}, {1, 0}), wrong_type_updates, options(),
                 "Updates dtype int32 does not match the tensor dtype float32.");
  // Axis before mask shape ([4] matches no dim of the tensor).
  const TensorBuffer mask4 = make_mask({4}, {1, 0, 1, 0});
  expect_invalid(t, mask4, scalar, options(5), axis5);
  expect_invalid(t, make_mask({3}, {1, 0, 1}), scalar, options(5), axis5);
  // Mask shape before updates shape ([7] broadcasts to no target of this tensor), both modes.
  const TensorBuffer updates7 = make_f32({7}, iota(7));
  const std::string mask_shape =
      "Mask shape [4] is not compatible with the required mask shape: [3].";
  expect_invalid(t, mask4, updates7, options(1), mask_shape);
  expect_invalid(t, mask4, updates7, options(1, false), mask_shape);
  expect_invalid(t, mask4, scalar, options(1), mask_shape);
  expect_invalid(t, make_mask({3}, {1, 0, 1}), updates7, options(1),
                 "Incompatible shapes: [7] vs. [2,2]");
  // All six at once: the first.
  expect_invalid(t, make(DataType::kUInt8, {}, {1}), make(DataType::kInt32, {7}, iota(7)),
                 options(5), "Mask cannot be a scalar.");
}

// docs/boolean_mask_update.md "Merged broadcast dims": the broadcast map of `updates` keeps at
// most 8 dims on each side of the mask dim after dropping size-1 target dims and merging
// neighbours of the same kind (broadcast or not). Dims that alternate between broadcast and
// not never merge, so 9 of them on one side (a rank-10 tensor) are rejected; 8 are fine, and so
// are 9 that merge.
TEST_P(BooleanMaskUpdate, MoreThanEightUnmergeableDimsOnOneSideAreRejected) {
  const auto check_against_reference = [&](const std::vector<std::int64_t>& tshape,
                                           const std::vector<int>& mask_values,
                                           const std::vector<std::int64_t>& ushape, int axis) {
    std::int64_t tsize = 1, usize = 1;
    for (std::int64_t d : tshape) tsize *= d;
    for (std::int64_t d : ushape) usize *= d;
    const TensorBuffer tensor = make_f32(Shape(tshape), iota(static_cast<int>(tsize)));
    std::vector<double> uv = iota(static_cast<int>(usize));
    for (double& v : uv) v = -1 - v;
    const TensorBuffer updates = make_f32(Shape(ushape), uv);
    const std::int64_t k = static_cast<std::int64_t>(mask_values.size());
    const TensorBuffer mask = make_mask(Shape({k}), mask_values);
    const auto expected = testing::mask_update::reference(bytes(tensor), tshape, bytes(mask), {k},
                                                          bytes(updates), ushape, 4, axis, true);
    ASSERT_TRUE(expected.has_value());
    EXPECT_EQ(bytes(boolean_mask_update(tensor, mask, updates, options(axis))), *expected);
    TensorBuffer target = tensor.clone();
    boolean_mask_update_in_place(target, mask, updates, options(axis));
    EXPECT_EQ(bytes(target), *expected);
  };
  // 8 alternating leading dims and n = 2: at the limit.
  check_against_reference({2, 2, 2, 2, 2, 2, 2, 2, 3}, {1, 0, 1}, {2, 1, 2, 1, 2, 1, 2, 1, 2}, 8);
  // 9 leading dims that merge into one.
  check_against_reference({2, 2, 2, 2, 2, 2, 2, 2, 2, 3}, {1, 0, 1}, {2, 2, 2, 2, 2, 2, 2, 2, 2, 1},
                          9);
  // 9 alternating leading dims.
  const TensorBuffer lead9 = make_f32({2, 2, 2, 2, 2, 2, 2, 2, 2, 3}, iota(1536));
  expect_invalid(lead9, make_mask({3}, {1, 0, 1}),
                 make_f32({2, 1, 2, 1, 2, 1, 2, 1, 2, 1}, iota(32)), options(9),
                 "Broadcasting updates of shape [2,1,2,1,2,1,2,1,2,1] over a tensor of shape "
                 "[2,2,2,2,2,2,2,2,2,3] needs more than 8 dims on one side of the mask after "
                 "merging.");
  // 9 alternating trailing dims (mask at axis 0).
  const TensorBuffer trail9 = make_f32({3, 2, 2, 2, 2, 2, 2, 2, 2, 2}, iota(1536));
  expect_invalid(trail9, make_mask({3}, {0, 1, 1}),
                 make_f32({1, 2, 1, 2, 1, 2, 1, 2, 1, 2}, iota(32)), options(0),
                 "Broadcasting updates of shape [1,2,1,2,1,2,1,2,1,2] over a tensor of shape "
                 "[3,2,2,2,2,2,2,2,2,2] needs more than 8 dims on one side of the mask after "
                 "merging.");
  // broadcast = false: the exact target has no broadcast dim, so it always merges.
  std::vector<double> full(1024);
  for (std::size_t i = 0; i < full.size(); ++i) full[i] = -1 - static_cast<double>(i);
  const TensorBuffer exact = make_f32({2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, full);
  TensorBuffer target = lead9.clone();
  boolean_mask_update_in_place(target, make_mask({3}, {1, 0, 1}), exact, options(9, false));
  const std::vector<double> got = values(target);
  for (std::size_t row = 0; row < 512; ++row) {
    ASSERT_EQ(got[row * 3 + 0], full[row * 2 + 0]) << row;
    ASSERT_EQ(got[row * 3 + 1], static_cast<double>(row * 3 + 1)) << row;
    ASSERT_EQ(got[row * 3 + 2], full[row * 2 + 1]) << row;
  }
}

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(BooleanMaskUpdate);

}  // namespace
}  // namespace tensorbuf
