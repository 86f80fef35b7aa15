// boolean_mask_update moves bytes: every dtype, any nonzero mask byte, bool bytes as they are,
// empty tensors, the tensor as its own mask or updates, and large multithreaded cases, on every
// device (CUDA instances skip without a GPU).
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

class BooleanMaskUpdateBytes : public BooleanMaskUpdate {};

TEST_P(BooleanMaskUpdateBytes, EveryDtypeMovesBytes) {
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

TEST_P(BooleanMaskUpdateBytes, AnyNonzeroMaskByteIsTrue) {
  const TensorBuffer m = from_bytes(DataType::kBool, {4}, {0, 2, 255, 0});
  expect_result(make_f32({4}, {1, 2, 3, 4}), m, make_f32({2}, {-1, -2}), options(), {1, -1, -2, 4});
}

TEST_P(BooleanMaskUpdateBytes, BoolBytesAreCopiedAsTheyAre) {
  const TensorBuffer t = from_bytes(DataType::kBool, {3}, {0, 7, 0});
  const TensorBuffer u = from_bytes(DataType::kBool, {1}, {5});
  const TensorBuffer out = boolean_mask_update(t, make_mask({3}, {1, 0, 0}), u, options());
  EXPECT_EQ(bytes(out), (std::vector<std::uint8_t>{5, 7, 0}));
}

TEST_P(BooleanMaskUpdateBytes, EmptyTensorStillChecksShapes) {
  const TensorBuffer t = make_f32({0, 3}, {});
  const TensorBuffer m = make_mask({3}, {1, 0, 1});
  expect_result(t, m, make_f32({2}, {1, 2}), options(1), {});
  expect_invalid(t, m, make_f32({5}, iota(5)), options(1), "Incompatible shapes: [5] vs. [0,2]");
  expect_result(make_f32({0}, {}), make_mask({0}, {}), make_f32({}, {1}), options(), {});
}

TEST_P(BooleanMaskUpdateBytes, InPlaceWithTheTensorAsMask) {
  // NumPy: t[t] = u with a bool t; the mask is read before anything is written.
  TensorBuffer t = make(DataType::kBool, {4}, {1, 0, 1, 1});
  boolean_mask_update_in_place(t, t, make(DataType::kBool, {}, {0}), options());
  EXPECT_EQ(values(t), (std::vector<double>{0, 0, 0, 0}));
}

TEST_P(BooleanMaskUpdateBytes, InPlaceWithTheTensorAsUpdates) {
  TensorBuffer t = make_f32({1, 3}, {1, 2, 3});
  boolean_mask_update_in_place(t, make_mask({1, 3}, {1, 1, 1}), t, options());
  EXPECT_EQ(values(t), (std::vector<double>{1, 2, 3}));
  // [2, 1] tensor, mask over dim 1 all true: updates = the tensor itself, target [2, 1].
  TensorBuffer s = make_f32({2, 1}, {4, 5});
  boolean_mask_update_in_place(s, make_mask({1}, {1}), s, options(1));
  EXPECT_EQ(values(s), (std::vector<double>{4, 5}));
}

TEST_P(BooleanMaskUpdateBytes, LargeMultithreadedAcrossLeadingIndices) {
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

TEST_P(BooleanMaskUpdateBytes, LargeRandomMaskSmallRowsEveryElementSize) {
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

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(BooleanMaskUpdateBytes);

}  // namespace
}  // namespace tensorbuf
