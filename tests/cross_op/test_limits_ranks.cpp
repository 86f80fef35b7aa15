// Limits, part 2: rank 0 and rank 8 through every op, and zero sizes everywhere, on
// small data with exact expected values (written out here, from the spec's rules), on the CPU
// and through the CUDA backend's drivers on the host executor.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "scatter_nd/driver_helpers.hpp"
#include "scatter_nd/helpers.hpp"
#include "substr/helpers.hpp"
#include "support/error_text.hpp"

namespace tensorbuf {
namespace {

namespace sc = testing::scatter;
namespace mu = testing::mask_update;
using testing::Strings;

const Shape kRank8({2, 2, 2, 2, 2, 2, 2, 2});

std::vector<double> ramp(std::int64_t n, double from = 0) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = from + static_cast<double>(i);
  return v;
}

template <class F>
std::string error_text(F&& f) {
  return testing::invalid_argument_text(std::forward<F>(f));
}

// ---------------------------------------------------------------------------------------------
// tensor_scatter_nd_*

const sc::Backend kScatterBackends[] = {sc::Backend::kDriverForward, sc::Backend::kDriverReverse,
                                        sc::Backend::kDriverDeterministic, sc::Backend::kCpuOwners,
                                sc::Backend::kCpuBuckets};

// Every op, out of place and in place on the CPU and on each driver, both policies: the
// result must be `expected[op]`.
void expect_scatter(const TensorBuffer& tensor, const TensorBuffer& indices,
                    const TensorBuffer& updates, const std::vector<std::vector<double>>& expected) {
  for (int op = 0; op < 5; ++op) {
    SCOPED_TRACE(sc::op_name(static_cast<sc::Op>(op)));
    const std::vector<double>& want = expected[static_cast<std::size_t>(op)];
    for (OutOfBoundsPolicy policy : {OutOfBoundsPolicy::kError, OutOfBoundsPolicy::kDrop}) {
      const ScatterOptions options{.device = Device::cpu(), .out_of_bounds = policy};
      EXPECT_EQ(sc::values_of(
                    sc::out_of_place(static_cast<sc::Op>(op))(tensor, indices, updates, options)),
                want);
      TensorBuffer target = tensor.clone();
      sc::in_place(static_cast<sc::Op>(op))(target, indices, updates, options);
      EXPECT_EQ(sc::values_of(target), want);
      for (sc::Backend backend : kScatterBackends) {
        for (bool in_place : {false, true}) {
          const sc::DirectResult r = sc::run_direct(backend, static_cast<core::ScatterOp>(op),
                                                    tensor, indices, updates, policy, in_place);
          EXPECT_EQ(r.error, "") << sc::backend_name(backend);
          EXPECT_EQ(sc::values_of(r.out), want) << sc::backend_name(backend);
        }
      }
    }
  }
}

TEST(LimitsRanks, ScatterRankZero) {
  const TensorBuffer scalar = sc::make(DataType::kInt32, {5}, Shape{});
  const TensorBuffer three = sc::make(DataType::kInt32, {1, 2, 3}, Shape{3});
  for (int op = 0; op < 5; ++op) {
    const auto fn = sc::out_of_place(static_cast<sc::Op>(op));
    EXPECT_THROW(fn(scalar, sc::make_indices({0}, Shape{1}), scalar, {}), InvalidArgumentError);
    EXPECT_THROW(fn(three, sc::make_indices({0}, Shape{}), scalar, {}), InvalidArgumentError);
  }
  // A rank-0 update: rank-1 indices [1] is one index, updates.shape = tensor.shape[1:] = [].
  expect_scatter(three, sc::make_indices({1}, Shape{1}), scalar,
                 {{1, -3, 3}, {1, 7, 3}, {1, 5, 3}, {1, 2, 3}, {1, 5, 3}});
}

TEST(LimitsRanks, ScatterRankEight) {
  const TensorBuffer tensor = sc::make(DataType::kInt32, ramp(256), kRank8);
  // Depth 8: elements 170 (binary 10101010) and 1.
  const TensorBuffer points =
      sc::make_indices({1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1}, Shape{2, 8});
  const TensorBuffer values = sc::make(DataType::kInt32, {1000, -1000}, Shape{2});
  std::vector<std::vector<double>> expected(5, ramp(256));
  const double at170[] = {170 - 1000, 170 + 1000, 1000, 170, 1000};  // sub add update min max
  const double at1[] = {1 + 1000, 1 - 1000, -1000, -1000, 1};
  for (int op = 0; op < 5; ++op) {
    expected[static_cast<std::size_t>(op)][170] = at170[op];
    expected[static_cast<std::size_t>(op)][1] = at1[op];
  }
  expect_scatter(tensor, points, values, expected);

  // Rank-8 indices of depth 4: slices of 16 at 192 ([1,1,0,0]) and 16 ([0,0,0,1]); rank-11
  // updates [1,1,1,1,1,1,2] + [2,2,2,2].
  const Shape batch({1, 1, 1, 1, 1, 1, 2, 4});
  const TensorBuffer slices = sc::make_indices({1, 1, 0, 0, 0, 0, 0, 1}, batch);
  const TensorBuffer ones = sc::make(DataType::kInt32, std::vector<double>(32, 1),
                                     Shape{1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2});
  std::vector<double> add = ramp(256);
  for (int j = 0; j < 16; ++j) {
    add[static_cast<std::size_t>(192 + j)] += 1;
    add[static_cast<std::size_t>(16 + j)] += 1;
  }
  EXPECT_EQ(sc::values_of(tensor_scatter_nd_add(tensor, slices, ones)), add);
  const sc::DirectResult det =
      sc::run_direct(sc::Backend::kDriverDeterministic, core::ScatterOp::kAdd, tensor, slices, ones,
                     OutOfBoundsPolicy::kError, true);
  EXPECT_EQ(sc::values_of(det.out), add);
  // A bad row is named by its rank-7 batch position.
  const TensorBuffer bad = sc::make_indices({1, 1, 0, 0, 0, 0, 2, 0}, batch);
  const std::string message =
      "indices[0,0,0,0,0,0,1] = [0, 0, 2, 0] does not index into shape [2,2,2,2,2,2,2,2]";
  EXPECT_EQ(error_text([&] { tensor_scatter_nd_add(tensor, bad, ones); }), message);
  for (sc::Backend backend : kScatterBackends) {
    EXPECT_EQ(sc::run_direct(backend, core::ScatterOp::kAdd, tensor, bad, ones,
                             OutOfBoundsPolicy::kError, false)
                  .error,
              message)
        << sc::backend_name(backend);
  }
}

TEST(LimitsRanks, ScatterZeroSizes) {
  const TensorBuffer f0 = sc::make(DataType::kFloat32, {}, Shape{0});
  // No rows into an empty tensor; a row into a [0] tensor is bad (every index is).
  expect_scatter(f0, sc::make_indices({}, Shape{0, 1}), f0, {{}, {}, {}, {}, {}});
  EXPECT_EQ(error_text([&] {
              tensor_scatter_nd_sub(f0, sc::make_indices({0}, Shape{1, 1}),
                                    sc::make(DataType::kFloat32, {1}, Shape{1}));
            }),
            "indices[0] = [0] does not index into shape [0]");
  // Empty slices of a [2,0,3] tensor: index 1 is good.
  const TensorBuffer t203 = sc::make(DataType::kFloat32, {}, Shape{2, 0, 3});
  expect_scatter(t203, sc::make_indices({1}, Shape{1, 1}),
                 sc::make(DataType::kFloat32, {}, Shape{1, 0, 3}), {{}, {}, {}, {}, {}});
  // No rows into a rank-8 tensor.
  const TensorBuffer tensor = sc::make(DataType::kInt32, ramp(256), kRank8);
  expect_scatter(tensor, sc::make_indices({}, Shape{0, 8}),
                 sc::make(DataType::kInt32, {}, Shape{0}),
                 std::vector<std::vector<double>>(5, ramp(256)));
}

// ---------------------------------------------------------------------------------------------
// boolean_mask_update

void expect_mask_update(const TensorBuffer& tensor, const TensorBuffer& mask,
                        const TensorBuffer& updates, BooleanMaskUpdateOptions options,
                        const std::vector<double>& expected) {
  options.device = Device::cpu();
  EXPECT_EQ(mu::values(boolean_mask_update(tensor, mask, updates, options)), expected);
  TensorBuffer target = tensor.clone();
  boolean_mask_update_in_place(target, mask, updates, options);
  EXPECT_EQ(mu::values(target), expected);
}

TEST(LimitsRanks, BooleanMaskUpdateRankZero) {
  const TensorBuffer scalar = mu::make_f32(Shape{}, {9});
  EXPECT_EQ(error_text([&] {
              boolean_mask_update(mu::make_f32(Shape{3}, {1, 2, 3}),
                                  mu::make(DataType::kBool, Shape{}, {1}), scalar);
            }),
            "Mask cannot be a scalar.");
  EXPECT_THROW(boolean_mask_update(scalar, mu::make_mask(Shape{1}, {1}), scalar),
               InvalidArgumentError);
  // A rank-0 update broadcasts to every masked row (B1).
  expect_mask_update(mu::make_f32(Shape{3}, {1, 2, 3}), mu::make_mask(Shape{3}, {1, 0, 1}), scalar,
                     {}, {9, 2, 9});
}

// Dim d of flat index e of a [2]*8 tensor.
int dim_of(int e, int d) { return (e >> (7 - d)) & 1; }

TEST(LimitsRanks, BooleanMaskUpdateRankEight) {
  const TensorBuffer tensor = mu::make_f32(kRank8, ramp(256));
  // A rank-2 mask at axis 3: positions (0,0) and (1,1), n = 2.
  const TensorBuffer diagonal = mu::make_mask(Shape{2, 2}, {1, 0, 0, 1});
  std::vector<double> scalar_expected = ramp(256);
  std::vector<double> rows_expected = ramp(256);
  for (int e = 0; e < 256; ++e) {
    const int a = dim_of(e, 3);
    if (a != dim_of(e, 4)) continue;
    scalar_expected[static_cast<std::size_t>(e)] = -1;
    // updates[j, t] with j = a and t = dims 5..7, repeated over dims 0..2.
    rows_expected[static_cast<std::size_t>(e)] = 1000 + a * 8 + (e & 7);
  }
  const BooleanMaskUpdateOptions axis3{.axis = 3};
  expect_mask_update(tensor, diagonal, mu::make_f32(Shape{}, {-1}), axis3, scalar_expected);
  expect_mask_update(tensor, diagonal, mu::make_f32(Shape{2, 2, 2, 2}, ramp(16, 1000)), axis3,
                     rows_expected);
  // A rank-8 mask over the whole tensor: every third element, n = 86.
  std::vector<double> every_third(256);
  std::vector<double> third_expected = ramp(256);
  int j = 0;
  for (int e = 0; e < 256; ++e) {
    every_third[static_cast<std::size_t>(e)] = e % 3 == 0 ? 1 : 0;
    if (e % 3 == 0) third_expected[static_cast<std::size_t>(e)] = 500 + j++;
  }
  EXPECT_EQ(j, 86);
  expect_mask_update(tensor, mu::make(DataType::kBool, kRank8, every_third),
                     mu::make_f32(Shape{86}, ramp(86, 500)), {}, third_expected);
  EXPECT_EQ(error_text([&] {
              boolean_mask_update(tensor, mu::make(DataType::kBool, kRank8, every_third),
                                  mu::make_f32(Shape{85}, ramp(85)));
            }),
            "Incompatible shapes: [85] vs. [86]");
}

TEST(LimitsRanks, BooleanMaskUpdateZeroSizes) {
  const TensorBuffer scalar = mu::make_f32(Shape{}, {9});
  expect_mask_update(mu::make_f32(Shape{0}, {}), mu::make_mask(Shape{0}, {}), scalar, {}, {});
  // [3,0]: two masked rows of nothing.
  const TensorBuffer t30 = mu::make_f32(Shape{3, 0}, {});
  const TensorBuffer m3 = mu::make_mask(Shape{3}, {1, 0, 1});
  expect_mask_update(t30, m3, mu::make_f32(Shape{2, 0}, {}), {}, {});
  EXPECT_EQ(error_text([&] {
              boolean_mask_update(t30, m3, mu::make_f32(Shape{3, 0}, {}));
            }),
            "Incompatible shapes: [3,0] vs. [2,0]");
  // [0,3] with a mask on axis 1: no leading rows; updates [n] still has to match n = 2.
  const TensorBuffer t03 = mu::make_f32(Shape{0, 3}, {});
  const BooleanMaskUpdateOptions axis1{.axis = 1};
  expect_mask_update(t03, m3, mu::make_f32(Shape{2}, {4, 5}), axis1, {});
  EXPECT_EQ(error_text([&] {
              boolean_mask_update(t03, m3, mu::make_f32(Shape{3}, {4, 5, 6}), axis1);
            }),
            "Incompatible shapes: [3] vs. [0,2]");
  // An all-false mask: n = 0, the empty target takes a scalar or [0].
  expect_mask_update(mu::make_f32(Shape{2}, {1, 2}), mu::make_mask(Shape{2}, {0, 0}),
                     mu::make_f32(Shape{0}, {}), {}, {1, 2});
}

// ---------------------------------------------------------------------------------------------
// substr

TensorBuffer i64(const std::vector<std::int64_t>& v, const Shape& shape) {
  return testing::index_buffer(v, shape, DataType::kInt64);
}

// substr on the CPU (both policies where no pos is out of range) and through the driver (both
// unit modes: ASCII strings give the same result).
void expect_substr(const StringTensor& input, const TensorBuffer& pos, const TensorBuffer& len,
                   const Shape& shape, const Strings& expected) {
  for (SubstrUnit unit : {SubstrUnit::kByte, SubstrUnit::kUtf8Char}) {
    for (OutOfBoundsPolicy policy : {OutOfBoundsPolicy::kError, OutOfBoundsPolicy::kDrop}) {
      const StringTensor out =
          substr(input, pos, len,
                 SubstrOptions{.device = Device::cpu(), .unit = unit, .out_of_bounds = policy});
      EXPECT_EQ(out.shape(), shape);
      EXPECT_EQ(out.to_strings(), expected);
    }
    for (std::int64_t lanes : {std::int64_t{0}, INT64_MAX}) {
      testing::DriverSettings settings;
      settings.unit = unit;
      settings.report = true;
      settings.lane_threshold = lanes;
      const testing::DriverRun run = testing::run_driver(input, pos, len, settings);
      EXPECT_EQ(run.first_bad, -1);
      EXPECT_EQ(run.values, expected);
    }
  }
}

TEST(LimitsRanks, SubstrRankZero) {
  const StringTensor hello = StringTensor::from_strings({"Hello"}, Shape{});
  expect_substr(hello, i64({1}, Shape{}), i64({3}, Shape{}), Shape{}, {"ell"});
  // A rank-0 input against rank-1 pos: the output takes pos's shape.
  expect_substr(hello, i64({0, 4}, Shape{2}), i64({2, 9}, Shape{2}), Shape{2}, {"He", "o"});
}

TEST(LimitsRanks, SubstrRankEightWithBroadcasting) {
  const StringTensor words =
      StringTensor::from_strings({"Hello", "World"}, Shape{2, 1, 1, 1, 1, 1, 1, 1});
  const Shape pos_shape({1, 1, 1, 1, 1, 1, 1, 3});
  const Shape out_shape({2, 1, 1, 1, 1, 1, 1, 3});
  expect_substr(words, i64({0, 1, 2}, pos_shape), i64({1, 2, 3}, pos_shape), out_shape,
                {"H", "el", "llo", "W", "or", "rld"});
  // A rank-0 input against rank-8 pos.
  expect_substr(StringTensor::from_strings({"abc"}, Shape{}), i64({0, -1, 3}, pos_shape),
                i64({-1, 1, 1}, pos_shape), pos_shape, {"abc", "c", ""});
  EXPECT_EQ(error_text([&] {
              substr(words, i64({0, 1, 9}, pos_shape), i64({1, 1, 1}, pos_shape));
            }),
            "pos 9 out of range for string b'Hello' at index 2");
}

TEST(LimitsRanks, SubstrZeroSizes) {
  const TensorBuffer zero = i64({0}, Shape{});
  expect_substr(StringTensor::from_strings(Strings{}, Shape{0}), zero, zero, Shape{0}, {});
  expect_substr(StringTensor::from_strings(Strings{}, Shape{0, 3}), i64({0}, Shape{1}),
                i64({1}, Shape{1}), Shape{0, 3}, {});
  // Broadcasting a [2,1] input against [0] pos gives [2,0]; against [3] pos, [2,3].
  const StringTensor two = StringTensor::from_strings({"ab", "cd"}, Shape{2, 1});
  expect_substr(two, i64({}, Shape{0}), i64({}, Shape{0}), Shape{2, 0}, {});
  EXPECT_EQ(error_text([&] {
              substr(StringTensor::from_strings({"a", "b"}, Shape{2}), i64({}, Shape{0}),
                     i64({}, Shape{0}));
            }),
            "Incompatible shapes: [2] vs. [0]");
  // Empty strings: pos 0 (and -0) gives "", pos 1 is out of range.
  const StringTensor blanks = StringTensor::from_strings({"", ""}, Shape{2});
  expect_substr(blanks, zero, i64({5}, Shape{}), Shape{2}, {"", ""});
  EXPECT_EQ(error_text([&] { substr(blanks, i64({1}, Shape{}), zero); }),
            "pos 1 out of range for string b'' at index 0");
  EXPECT_EQ(substr(blanks, i64({-1}, Shape{}), zero,
                   SubstrOptions{.out_of_bounds = OutOfBoundsPolicy::kDrop})
                .to_strings(),
            (Strings{"", ""}));
}

}  // namespace
}  // namespace tensorbuf
