// spec/indexing.md section 1, tensor_scatter_nd_mul: every rule of spec/tensor_scatter_nd.md
// with `out[slice] *= update`, on every device (CUDA instances skip without a GPU): exact
// values per dtype, integer wrap-around, duplicates in row order, bad rows under both
// policies, in place, and ONNX ScatterND's reduction="mul" example.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <set>
#include <vector>

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
constexpr double kInf = std::numeric_limits<double>::infinity();

class ScatterNdMulSpec : public testing::scatter::SpecFixture {};

TEST_P(ScatterNdMulSpec, DuplicatesMultiply) {  // T20's inputs
  expect_all(Op::kMul, make(DT::kInt32, {5, 5, 5}, {3}), make_indices({0, 2, 0}, {3, 1}),
             make(DT::kInt32, {1, 9, 3}, {3}), make(DT::kInt32, {15, 5, 45}, {3}));
}

TEST_P(ScatterNdMulSpec, EveryNumericDtype) {
  for (DT type : {DT::kUInt8, DT::kInt8, DT::kInt16, DT::kInt32, DT::kInt64, DT::kFloat16,
                  DT::kBFloat16, DT::kFloat32, DT::kFloat64}) {
    SCOPED_TRACE(to_string(type));
    expect_all(Op::kMul, make(type, {5, 5, 5}, {3}), make_indices({0, 2, 0}, {3, 1}, DT::kInt64),
               make(type, {1, 9, 3}, {3}), make(type, {15, 5, 45}, {3}));
  }
}

// Rule 1 keeps bool for update only; NumPy's multiply on bool would be a logical AND, but mul
// follows its siblings (and spec/indexing.md 5b: no arithmetic reduction on bool).
TEST_P(ScatterNdMulSpec, BoolIsRejected) {
  expect_error(Op::kMul, make(DT::kBool, {0, 1, 1}, {3}), make_indices({1}, {1, 1}),
               make(DT::kBool, {1}, {1}), options(),
               "tensor_scatter_nd_mul: tensor dtype bool is not supported (numeric dtypes only; "
               "bool only for tensor_scatter_nd_update)");
}

TEST_P(ScatterNdMulSpec, SlicesAndFullDepth) {
  expect_all(Op::kMul, make(DT::kFloat32, {1, 2, 3, 4, 5, 6}, {2, 3}), make_indices({1, 1}, {2, 1}),
             make(DT::kFloat32, {2, 2, 2, 0.5, -1, 3}, {2, 3}),
             make(DT::kFloat32, {1, 2, 3, 4, -10, 36}, {2, 3}));
  expect_all(Op::kMul, make(DT::kInt64, {1, 2, 3, 4}, {2, 2}), make_indices({0, 1, 1, 0}, {2, 2}),
             make(DT::kInt64, {10, 100}, {2}), make(DT::kInt64, {1, 20, 300, 4}, {2, 2}));
  // Rank-1 indices are one index (rule 3).
  expect_all(Op::kMul, make(DT::kInt16, {1, 2, 3, 4}, {2, 2}), make_indices({1}, {1}),
             make(DT::kInt16, {-1, 5}, {2}), make(DT::kInt16, {1, 2, -3, 20}, {2, 2}));
}

// Rule 6: the product wraps (two's complement), computed without undefined behaviour.
TEST_P(ScatterNdMulSpec, IntegerProductsWrap) {
  constexpr double kI32Max = 2147483647.0;
  constexpr double kI32Min = -2147483648.0;
  expect_all(Op::kMul, make(DT::kInt32, {kI32Max, kI32Min, 65536}, {3}),
             make_indices({0, 1, 2}, {3, 1}), make(DT::kInt32, {2, -1, 65536}, {3}),
             make(DT::kInt32, {-2, kI32Min, 0}, {3}));
  // -2^63 * -1 = -2^63; (2^32 + 1)^2 = 2^64 + 2^33 + 1 = 2^33 + 1.
  constexpr double kI64Min = -9223372036854775808.0;
  expect_all(Op::kMul, make(DT::kInt64, {kI64Min, 4294967297.0}, {2}), make_indices({0, 1}, {2, 1}),
             make(DT::kInt64, {-1, 4294967297.0}, {2}),
             make(DT::kInt64, {kI64Min, 8589934593.0}, {2}));
  // int16: -1 * -1 is 65535 * 65535 in uint16, which a plain promotion to int would overflow;
  // 255 * 255 = 65025 = -511 (mod 2^16); -32768 * -1 = -32768.
  expect_all(Op::kMul, make(DT::kInt16, {-1, 255, -32768}, {3}), make_indices({0, 1, 2}, {3, 1}),
             make(DT::kInt16, {-1, 255, -1}, {3}), make(DT::kInt16, {1, -511, -32768}, {3}));
  expect_all(Op::kMul, make(DT::kInt8, {-128, 16, 100}, {3}), make_indices({0, 1, 2}, {3, 1}),
             make(DT::kInt8, {-1, 16, 3}, {3}), make(DT::kInt8, {-128, 0, 44}, {3}));
  // uint8: 200 * 2 = 400 = 144; duplicates wrap at every step: 16 * 4 * 4 = 256 = 0.
  expect_all(Op::kMul, make(DT::kUInt8, {200, 16}, {2}), make_indices({0, 1, 1}, {3, 1}),
             make(DT::kUInt8, {2, 4, 4}, {3}), make(DT::kUInt8, {144, 0}, {2}));
}

// IEEE products: the sign of zero, NaN and infinity propagate (same_values compares bits).
TEST_P(ScatterNdMulSpec, FloatSpecialValues) {
  for (DT type : {DT::kFloat16, DT::kBFloat16, DT::kFloat32, DT::kFloat64}) {
    SCOPED_TRACE(to_string(type));
    expect_all(Op::kMul, make(type, {0, 1, kNaN, 2, kInf}, {5}),
               make_indices({0, 1, 2, 3, 4}, {5, 1}), make(type, {-1, kNaN, 2, -kInf, 0}, {5}),
               make(type, {-0.0, kNaN, kNaN, -kInf, kNaN}, {5}));
  }
}

// The products of `factors` taken in every order, rounded to T after every step: what CUDA's
// atomics may give for one element (their order is unspecified).
template <class T>
std::set<double> products_in_any_order(std::vector<double> factors) {
  std::set<double> out;
  std::sort(factors.begin(), factors.end());
  do {
    T acc = testing::scatter::from_double<T>(1.0);
    for (double f : factors) acc = acc * testing::scatter::from_double<T>(f);
    out.insert(testing::scatter::to_double(acc));
  } while (std::next_permutation(factors.begin(), factors.end()));
  return out;
}

// Rule 5: the CPU (and CUDA when deterministic) multiplies duplicates in row order, checked
// against a serial loop in the float type; orders differ here in the last bit:
// (0.1f * 0.2f) * 1.3f != (1.3f * 0.2f) * 0.1f. CUDA's atomics give one of the orders.
TEST_P(ScatterNdMulSpec, DuplicatesApplyInRowOrder) {
  auto serial = [](std::initializer_list<float> factors) {
    float acc = 1.0f;
    for (float f : factors) acc *= f;
    return static_cast<double>(acc);
  };
  const double forward = serial({0.1f, 0.2f, 1.3f});
  const double backward = serial({1.3f, 0.2f, 0.1f});
  ASSERT_NE(forward, backward);  // the inputs do tell the orders apart
  const TensorBuffer tensor = make(DT::kFloat32, {1, 1}, {2});
  const TensorBuffer indices = make_indices({0, 0, 0, 1, 1, 1}, {6, 1});
  const TensorBuffer updates = make(DT::kFloat32, {0.1f, 0.2f, 1.3f, 1.3f, 0.2f, 0.1f}, {6});
  const TensorBuffer expected = make(DT::kFloat32, {forward, backward}, {2});
  if (!GetParam().is_cuda()) {
    expect_all(Op::kMul, tensor, indices, updates, expected);
    return;
  }
  for (OutOfBoundsPolicy policy : {OutOfBoundsPolicy::kError, OutOfBoundsPolicy::kDrop}) {
    EXPECT_TRUE(same_values(tensor_scatter_nd_mul(tensor, indices, updates, options(policy, true)),
                            expected));
    TensorBuffer target = tensor.clone();
    tensor_scatter_nd_mul_in_place(target, indices, updates, options(policy, true));
    EXPECT_TRUE(same_values(target, expected));
    const std::vector<double> any =
        values_of(tensor_scatter_nd_mul(tensor, indices, updates, options(policy)));
    const std::set<double> orders = products_in_any_order<float>({0.1f, 0.2f, 1.3f});
    EXPECT_TRUE(orders.count(any[0]) == 1 && orders.count(any[1]) == 1);
  }
}

// Rule 6: float16 rounds to float16 after every step (NumPy's np.multiply.at gives 2.0546875;
// one rounding of the float product would give 2.056640625).
TEST_P(ScatterNdMulSpec, HalfRoundsEveryStep) {
  const TensorBuffer tensor = make(DT::kFloat16, {1}, {1});
  const TensorBuffer indices = make_indices({0, 0, 0}, {3, 1});
  const TensorBuffer updates = make(DT::kFloat16, {1.1, 1.1, 1.7}, {3});
  const TensorBuffer expected = make(DT::kFloat16, {2.0546875}, {1});
  if (!GetParam().is_cuda()) {
    expect_all(Op::kMul, tensor, indices, updates, expected);
    return;
  }
  EXPECT_TRUE(same_values(tensor_scatter_nd_mul(tensor, indices, updates,
                                                options(OutOfBoundsPolicy::kDeviceDefault, true)),
                          expected));
  const double any = values_of(tensor_scatter_nd_mul(tensor, indices, updates, options()))[0];
  EXPECT_EQ(products_in_any_order<float16>({1.1, 1.1, 1.7}).count(any), 1u) << any;
}

// Rule 7: the first bad row is named under kError (nothing written in place), bad rows are
// skipped under kDrop; the default is kError on the CPU and kDrop on CUDA.
TEST_P(ScatterNdMulSpec, BadRowsUnderBothPolicies) {
  const TensorBuffer tensor = make(DT::kFloat32, {1, 1, 1, 1}, {4});
  const TensorBuffer indices = make_indices({1, 7, -1, 3}, {4, 1});
  const TensorBuffer updates = make(DT::kFloat32, {2, 3, 4, 5}, {4});
  const std::vector<double> dropped = {1, 2, 1, 5};
  for (bool deterministic : {false, true}) {
    SCOPED_TRACE(::testing::Message() << "deterministic " << deterministic);
    expect_error(Op::kMul, tensor, indices, updates,
                 options(OutOfBoundsPolicy::kError, deterministic),
                 "indices[1] = [7] does not index into shape [4]");
    expect_error(Op::kMul, make(DT::kFloat32, {1, 1, 1, 1}, {4}),
                 make_indices({0, 1, 9, 2}, {2, 2, 1}), make(DT::kFloat32, {2, 2, 2, 2}, {2, 2}),
                 options(OutOfBoundsPolicy::kError, deterministic),
                 "indices[1,0] = [9] does not index into shape [4]");
    const ScatterOptions drop = options(OutOfBoundsPolicy::kDrop, deterministic);
    EXPECT_EQ(values_of(tensor_scatter_nd_mul(tensor, indices, updates, drop)), dropped);
    TensorBuffer target = tensor.clone();
    tensor_scatter_nd_mul_in_place(target, indices, updates, drop);
    EXPECT_EQ(values_of(target), dropped);
  }
  if (GetParam().is_cuda()) {
    EXPECT_EQ(values_of(tensor_scatter_nd_mul(tensor, indices, updates, options())), dropped);
  } else {
    expect_error(Op::kMul, tensor, indices, updates, options(),
                 "indices[1] = [7] does not index into shape [4]");
  }
}

// Rules 2, 3 and 8: shape errors, no rows, empty slices.
TEST_P(ScatterNdMulSpec, ShapesAndEmptyCases) {
  expect_error(Op::kMul, make(DT::kInt32, {1, 2, 3, 4}, {4}), make_indices({1, 2}, {2, 1}),
               make(DT::kInt32, {1, 2, 3}, {3}), options(), "");
  expect_error(Op::kMul, make(DT::kInt32, {1, 2, 3, 4}, {4}), make_indices({1, 2}, {1, 2}),
               make(DT::kInt32, {5}, {1}), options(), "");
  expect_all(Op::kMul, make(DT::kInt32, {1, 2, 3}, {3}), make_indices({}, {0, 1}),
             make(DT::kInt32, {}, {0}), make(DT::kInt32, {1, 2, 3}, {3}));
  expect_all(Op::kMul, make(DT::kFloat32, {}, {3, 0}), make_indices({1}, {1, 1}),
             make(DT::kFloat32, {}, {1, 0}), make(DT::kFloat32, {}, {3, 0}));
}

TEST_P(ScatterNdMulSpec, InPlaceWithAliasedUpdates) {
  // updates is the tensor itself: every row reads the value from before the call.
  TensorBuffer tensor = make(DT::kInt32, {1, 2, 3, 4}, {4});
  tensor_scatter_nd_mul_in_place(tensor, make_indices({1, 2, 3, 0}, {4, 1}), tensor, options());
  EXPECT_EQ(values_of(tensor), (std::vector<double>{4, 2, 6, 12}));
}

// ONNX ScatterND with reduction="mul" (onnx's test_scatternd_multiply inputs): the same result.
TEST_P(ScatterNdMulSpec, OnnxScatterNdMultiply) {
  const std::vector<double> block_a = {1, 2, 3, 4, 5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1};
  const std::vector<double> block_b = {8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<double> data = block_a;
  for (const auto* block : {&block_a, &block_b, &block_b}) {
    data.insert(data.end(), block->begin(), block->end());
  }
  std::vector<double> updates;
  for (double v : {5, 6, 7, 8, 1, 2, 3, 4}) updates.insert(updates.end(), 4, v);
  std::vector<double> expected = {5,   10,  15,  20,  60,  72, 84, 96,
                                  168, 147, 126, 105, 128, 96, 64, 32};
  expected.insert(expected.end(), data.begin() + 16, data.end());
  expect_all(Op::kMul, make(DT::kFloat32, data, {4, 4, 4}),
             make_indices({0, 0}, {2, 1}, DT::kInt64), make(DT::kFloat32, updates, {2, 4, 4}),
             make(DT::kFloat32, expected, {4, 4, 4}));
}

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(ScatterNdMulSpec);

}  // namespace
}  // namespace tensorbuf
