// boolean_mask_update: the rules and public vectors B1-B16 of spec/boolean_mask_update.md, on
// every device (CUDA instances skip without a GPU).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "support/devices.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::mask_update::bytes;
using testing::mask_update::from_bytes;
using testing::mask_update::make;
using testing::mask_update::make_f32;
using testing::mask_update::make_mask;
using testing::mask_update::values;

class BooleanMaskUpdate : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(GetParam()); }

  BooleanMaskUpdateOptions options(int axis = 0, bool broadcast = true) const {
    BooleanMaskUpdateOptions o;
    o.device = GetParam();
    o.axis = axis;
    o.broadcast = broadcast;
    return o;
  }

  // Runs out of place and in place; both must give `expected`, and the inputs stay unchanged.
  void expect_result(const TensorBuffer& tensor, const TensorBuffer& mask,
                     const TensorBuffer& updates, const BooleanMaskUpdateOptions& opts,
                     const std::vector<double>& expected) {
    const std::vector<std::uint8_t> tensor_before = bytes(tensor);
    const std::vector<std::uint8_t> mask_before = bytes(mask);
    const std::vector<std::uint8_t> updates_before = bytes(updates);
    TensorBuffer out = boolean_mask_update(tensor, mask, updates, opts);
    EXPECT_EQ(out.shape(), tensor.shape());
    EXPECT_EQ(out.data_type(), tensor.data_type());
    EXPECT_EQ(values(out), expected);
    EXPECT_EQ(bytes(tensor), tensor_before);
    EXPECT_EQ(bytes(mask), mask_before);
    EXPECT_EQ(bytes(updates), updates_before);

    TensorBuffer target = tensor.clone();
    boolean_mask_update_in_place(target, mask, updates, opts);
    EXPECT_EQ(values(target), expected);
    EXPECT_EQ(bytes(mask), mask_before);
    EXPECT_EQ(bytes(updates), updates_before);
  }

  // Both forms raise InvalidArgumentError (whose text is exactly `message` when given); the
  // tensor of the in-place form is unchanged.
  void expect_invalid(const TensorBuffer& tensor, const TensorBuffer& mask,
                      const TensorBuffer& updates, const BooleanMaskUpdateOptions& opts,
                      const std::string& message = "") {
    try {
      (void)boolean_mask_update(tensor, mask, updates, opts);
      ADD_FAILURE() << "no error";
    } catch (const InvalidArgumentError& e) {
      if (!message.empty()) {
        EXPECT_EQ(std::string(e.what()), message);
      }
    }
    TensorBuffer target = tensor.clone();
    const std::vector<std::uint8_t> before = bytes(target);
    try {
      boolean_mask_update_in_place(target, mask, updates, opts);
      ADD_FAILURE() << "no error (in place)";
    } catch (const InvalidArgumentError& e) {
      if (!message.empty()) {
        EXPECT_EQ(std::string(e.what()), message) << "(in place)";
      }
    }
    EXPECT_EQ(bytes(target), before);
  }
};

std::vector<double> iota(int n) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = i;
  return v;
}

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

TEST_P(BooleanMaskUpdate, EveryDtypeMovesBytes) {
  for (DataType type : {DataType::kBool, DataType::kUInt8, DataType::kInt8, DataType::kInt16,
                        DataType::kInt32, DataType::kInt64, DataType::kFloat16, DataType::kBFloat16,
                        DataType::kFloat32, DataType::kFloat64}) {
    SCOPED_TRACE(std::string(to_string(type)));
    const bool is_bool = type == DataType::kBool;
    const TensorBuffer t = make(
        type, {2, 3},
        is_bool ? std::vector<double>{1, 0, 1, 0, 1, 0} : std::vector<double>{1, 2, 3, 4, 5, 6});
    const TensorBuffer u =
        make(type, {2}, is_bool ? std::vector<double>{0, 1} : std::vector<double>{7, 8});
    expect_result(
        t, make_mask({3}, {1, 0, 1}), u, options(1),
        is_bool ? std::vector<double>{0, 0, 1, 0, 1, 1} : std::vector<double>{7, 2, 8, 7, 5, 8});
  }
}

TEST_P(BooleanMaskUpdate, AnyNonzeroMaskByteIsTrue) {
  const TensorBuffer m = from_bytes(DataType::kBool, {4}, {0, 2, 255, 0});
  expect_result(make_f32({4}, {1, 2, 3, 4}), m, make_f32({2}, {-1, -2}), options(), {1, -1, -2, 4});
}

TEST_P(BooleanMaskUpdate, BoolBytesAreCopiedAsTheyAre) {
  const TensorBuffer t = from_bytes(DataType::kBool, {3}, {0, 7, 0});
  const TensorBuffer u = from_bytes(DataType::kBool, {1}, {5});
  const TensorBuffer out = boolean_mask_update(t, make_mask({3}, {1, 0, 0}), u, options());
  EXPECT_EQ(bytes(out), (std::vector<std::uint8_t>{5, 7, 0}));
}

TEST_P(BooleanMaskUpdate, EmptyTensorStillChecksShapes) {
  const TensorBuffer t = make_f32({0, 3}, {});
  const TensorBuffer m = make_mask({3}, {1, 0, 1});
  expect_result(t, m, make_f32({2}, {1, 2}), options(1), {});
  expect_invalid(t, m, make_f32({5}, iota(5)), options(1), "Incompatible shapes: [5] vs. [0,2]");
  expect_result(make_f32({0}, {}), make_mask({0}, {}), make_f32({}, {1}), options(), {});
}

TEST_P(BooleanMaskUpdate, InPlaceWithTheTensorAsMask) {
  // NumPy: t[t] = u with a bool t; the mask is read before anything is written.
  TensorBuffer t = make(DataType::kBool, {4}, {1, 0, 1, 1});
  boolean_mask_update_in_place(t, t, make(DataType::kBool, {}, {0}), options());
  EXPECT_EQ(values(t), (std::vector<double>{0, 0, 0, 0}));
}

TEST_P(BooleanMaskUpdate, InPlaceWithTheTensorAsUpdates) {
  TensorBuffer t = make_f32({1, 3}, {1, 2, 3});
  boolean_mask_update_in_place(t, make_mask({1, 3}, {1, 1, 1}), t, options());
  EXPECT_EQ(values(t), (std::vector<double>{1, 2, 3}));
  // [2, 1] tensor, mask over dim 1 all true: updates = the tensor itself, target [2, 1].
  TensorBuffer s = make_f32({2, 1}, {4, 5});
  boolean_mask_update_in_place(s, make_mask({1}, {1}), s, options(1));
  EXPECT_EQ(values(s), (std::vector<double>{4, 5}));
}

TEST_P(BooleanMaskUpdate, LargeMultithreadedAcrossLeadingIndices) {
  // Big enough for several CPU chunks; chunks start in the middle of a leading index.
  const std::int64_t outer = 3, m_size = 70001, inner = 3;
  std::vector<double> tv(static_cast<std::size_t>(outer * m_size * inner));
  for (std::size_t i = 0; i < tv.size(); ++i) tv[i] = static_cast<double>(i % 1000);
  std::vector<int> mv(static_cast<std::size_t>(m_size));
  std::int64_t n = 0;
  for (std::size_t i = 0; i < mv.size(); ++i) {
    mv[i] = (i * 7919 % 13) < 5 ? 1 : 0;
    n += mv[i];
  }
  std::vector<double> uv(static_cast<std::size_t>(n * inner));
  for (std::size_t i = 0; i < uv.size(); ++i) uv[i] = -static_cast<double>(i % 5000) - 1;
  std::vector<double> expected = tv;
  for (std::int64_t o = 0; o < outer; ++o) {
    std::int64_t j = 0;
    for (std::int64_t m = 0; m < m_size; ++m) {
      if (mv[static_cast<std::size_t>(m)] == 0) continue;
      for (std::int64_t t = 0; t < inner; ++t) {
        expected[static_cast<std::size_t>((o * m_size + m) * inner + t)] =
            uv[static_cast<std::size_t>(j * inner + t)];
      }
      ++j;
    }
  }
  expect_result(make_f32({outer, m_size, inner}, tv), make_mask({m_size}, mv),
                make_f32({n, inner}, uv), options(1), expected);
}

TEST_P(BooleanMaskUpdate, LargeRandomMaskSmallRowsEveryElementSize) {
  // Mixed 64-entry blocks of rows of 1 to 16 bytes: the per-row select and scatter paths (and
  // the SIMD expand on CPUs that have it), against the serial reference.
  std::uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint8_t>(state >> 56);
  };
  for (DataType type : {DataType::kUInt8, DataType::kInt16, DataType::kFloat32, DataType::kInt64}) {
    for (std::int64_t inner : {1, 2}) {
      SCOPED_TRACE(std::string(to_string(type)) + " inner " + std::to_string(inner));
      const std::int64_t rows = 100003;
      const std::size_t es = type_size(type);
      std::vector<std::uint8_t> tv(static_cast<std::size_t>(rows * inner) * es);
      for (auto& b : tv) b = next();
      std::vector<std::uint8_t> mv(static_cast<std::size_t>(rows));
      std::int64_t n = 0;
      for (auto& b : mv) {
        b = next() < 128 ? 1 : 0;
        n += b;
      }
      std::vector<std::uint8_t> uv(static_cast<std::size_t>(n * inner) * es);
      for (auto& b : uv) b = next();
      const auto expected = testing::mask_update::reference(tv, {rows, inner}, mv, {rows}, uv,
                                                            {n, inner}, es, 0, true);
      ASSERT_TRUE(expected.has_value());
      const TensorBuffer t = from_bytes(type, {rows, inner}, tv);
      const TensorBuffer m = from_bytes(DataType::kBool, {rows}, mv);
      const TensorBuffer u = from_bytes(type, {n, inner}, uv);
      EXPECT_EQ(bytes(boolean_mask_update(t, m, u, options())), *expected);
      TensorBuffer target = from_bytes(type, {rows, inner}, tv);
      boolean_mask_update_in_place(target, m, u, options());
      EXPECT_EQ(bytes(target), *expected);
    }
  }
}

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(BooleanMaskUpdate);

}  // namespace
}  // namespace tensorbuf
