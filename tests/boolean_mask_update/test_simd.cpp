// boolean_mask_update on the CPU, both dispatch branches: the AVX-512 expand-load path (mixed
// 64-row blocks of 4- and 8-byte rows out of place; only on CPUs that have it) and the portable
// path (forced with cpu::set_simd_enabled(false)), against the serial reference, for
// every element size and rows of 1 to 64 bytes (and one odd size), with masks whose density
// changes along the rows (blocks all false, all true, mixed) and thread chunks that start
// mid-row (axis 1, outer 3) and off the 64-row grid; outputs large enough to stream too.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "core/plan_boolean_mask_update.hpp"
#include "cpu/cpu_features.hpp"
#include "cpu/streaming_copy.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::mask_update::bytes;
using testing::mask_update::from_bytes;

// Restores the default (SIMD on) whatever the test does.
class SimdSwitch {
 public:
  explicit SimdSwitch(bool enabled) { cpu::set_simd_enabled(enabled); }
  SimdSwitch(const SimdSwitch&) = delete;
  SimdSwitch& operator=(const SimdSwitch&) = delete;
  ~SimdSwitch() { cpu::set_simd_enabled(true); }
};

struct Lcg {
  std::uint64_t state;
  std::uint8_t byte() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint8_t>(state >> 56);
  }
};

DataType type_of_size(std::size_t size) {
  switch (size) {
    case 1:
      return DataType::kUInt8;
    case 2:
      return DataType::kInt16;
    case 4:
      return DataType::kFloat32;
    default:
      return DataType::kInt64;
  }
}

// m_size odd: 3 * m_size rows give two chunks on two threads that start mid-row, and the rows
// of leading index 1 start off the 64-byte grid.
void check_both_paths(std::size_t es, std::int64_t inner, std::uint64_t seed,
                      std::int64_t m_size = 50001) {
  const DataType type = type_of_size(es);
  const std::int64_t outer = 3;
  Lcg rng{seed};
  std::vector<std::uint8_t> tv(static_cast<std::size_t>(outer * m_size * inner) * es);
  for (auto& b : tv) b = rng.byte();
  // Density by stretch of 3000 entries: 0, 0.02, 0.5, 0.98, 1; nonzero bytes other than 1 too.
  std::vector<std::uint8_t> mv(static_cast<std::size_t>(m_size));
  std::int64_t n = 0;
  for (std::int64_t m = 0; m < m_size; ++m) {
    static const int kThreshold[] = {0, 5, 128, 251, 256};
    const int threshold = kThreshold[(m / 3000) % 5];
    const std::uint8_t r = rng.byte();
    const bool on = r < threshold;
    mv[static_cast<std::size_t>(m)] = on ? static_cast<std::uint8_t>(1 + (r & 3)) : 0;
    n += on ? 1 : 0;
  }
  std::vector<std::uint8_t> uv(static_cast<std::size_t>(outer * n * inner) * es);
  for (auto& b : uv) b = rng.byte();
  const std::vector<std::int64_t> tshape{outer, m_size, inner};
  const std::vector<std::int64_t> ushape{outer, n, inner};
  const auto expected =
      testing::mask_update::reference(tv, tshape, mv, {m_size}, uv, ushape, es, 1, true);
  ASSERT_TRUE(expected.has_value());
  const TensorBuffer t = from_bytes(type, Shape(tshape), tv);
  const TensorBuffer m = from_bytes(DataType::kBool, Shape({m_size}), mv);
  const TensorBuffer u = from_bytes(type, Shape(ushape), uv);
  BooleanMaskUpdateOptions options;
  options.device = Device::cpu();
  options.axis = 1;
  for (bool simd : {true, false}) {
    if (simd && !cpu::detected_cpu_features().avx512bw) continue;
    SCOPED_TRACE(simd ? "AVX-512 path" : "portable path");
    SimdSwitch use(simd);
    EXPECT_EQ(bytes(boolean_mask_update(t, m, u, options)), *expected);
    TensorBuffer target = from_bytes(type, Shape(tshape), tv);
    boolean_mask_update_in_place(target, m, u, options);
    EXPECT_EQ(bytes(target), *expected);
    // Updates [n, inner] repeated over the leading dim (lead stride 0).
    {
      std::vector<std::uint8_t> u1(uv.begin(), uv.begin() + static_cast<std::ptrdiff_t>(n * inner) *
                                                                static_cast<std::ptrdiff_t>(es));
      const auto expected1 =
          testing::mask_update::reference(tv, tshape, mv, {m_size}, u1, {n, inner}, es, 1, true);
      ASSERT_TRUE(expected1.has_value());
      EXPECT_EQ(bytes(boolean_mask_update(t, m, from_bytes(type, Shape({n, inner}), u1), options)),
                *expected1);
    }
  }
}

TEST(BooleanMaskUpdateSimd, EveryElementSizeAndRowSizeMatchesReferenceOnBothPaths) {
  std::uint64_t seed = 7;
  for (std::size_t es : {1, 2, 4, 8}) {
    for (std::int64_t inner : {1, 2, 3, 4, 8, 16}) {
      if (static_cast<std::int64_t>(es) * inner > 64) continue;
      SCOPED_TRACE("element size " + std::to_string(es) + " inner " + std::to_string(inner));
      check_both_paths(es, inner, ++seed);
    }
  }
}

// Outputs of 16 MiB and more stream out of place (cpu/streaming_copy.hpp): long runs copy whole
// 64-byte lines with non-temporal stores and ordinary stores at both ends, and the AVX-512
// expand of an aligned 64-row block stores its lines non-temporally.
TEST(BooleanMaskUpdateSimd, LargeOutputsThatStreamMatchReference) {
  std::uint64_t seed = 70;
  for (const auto& [es, inner] :
       std::vector<std::pair<std::size_t, std::int64_t>>{{4, 1}, {8, 1}, {4, 8}, {1, 3}}) {
    SCOPED_TRACE("element size " + std::to_string(es) + " inner " + std::to_string(inner));
    const std::int64_t row_bytes = static_cast<std::int64_t>(es) * inner;
    const std::int64_t m_size = (cpu::kStreamOutputBytes / (3 * row_bytes) + 64) | 1;
    check_both_paths(es, inner, ++seed, m_size);
  }
}

// The switch has no getter (core/plan_boolean_mask_update.hpp offers only the setter, and
// detected_cpu_features().avx512bw reports the CPU, not the switch), and both paths give the same
// bytes by design, so a switch left off cannot be detected here. What this checks: turning it
// off and on leaves detected_cpu_features().avx512bw as it was, and a call in either state gives
// the exact result.
TEST(BooleanMaskUpdateSimd, TogglingKeepsAvailabilityAndExactResults) {
  const bool available = cpu::detected_cpu_features().avx512bw;
  const TensorBuffer t =
      from_bytes(DataType::kFloat32, Shape({4}), std::vector<std::uint8_t>(16, 1));
  const TensorBuffer m = from_bytes(DataType::kBool, Shape({4}), {0, 1, 0, 1});
  const TensorBuffer u =
      from_bytes(DataType::kFloat32, Shape({2}), std::vector<std::uint8_t>(8, 9));
  std::vector<std::uint8_t> expected(16, 1);
  for (int i = 4; i < 8; ++i) expected[static_cast<std::size_t>(i)] = 9;
  for (int i = 12; i < 16; ++i) expected[static_cast<std::size_t>(i)] = 9;
  {
    SimdSwitch off(false);
    EXPECT_EQ(cpu::detected_cpu_features().avx512bw, available);
    EXPECT_EQ(bytes(boolean_mask_update(t, m, u)), expected);
  }
  EXPECT_EQ(cpu::detected_cpu_features().avx512bw, available);
  EXPECT_EQ(bytes(boolean_mask_update(t, m, u)), expected);
}

}  // namespace
}  // namespace tensorbuf
