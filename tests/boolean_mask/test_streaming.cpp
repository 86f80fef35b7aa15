// boolean_mask's streamed output on the CPU (whole 64-byte output lines by non-temporal stores
// from a line-aligned stage, taken by outputs beyond the caches): forced on every size through
// the tuning seam, against the independent reference; rows of 4, 8, 16 and 32 bytes, masks
// straddling a 64-entry word, a stage group and a count block, densities 0 to 1, axis 0 and 1,
// the into form clipped. The stage helper itself at every output offset within a line, with
// guard bytes around its output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "boolean_mask/reference.hpp"
#include "boolean_mask_update/helpers.hpp"
#include "cpu/boolean_mask_avx512.hpp"
#include "cpu/boolean_mask_tuning.hpp"
#include "cpu/cpu_features.hpp"
#include "cpu/streaming_copy.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::mask_update::bytes;
using testing::mask_update::from_bytes;
using testing::mask_update::make;
using testing::mask_update::values;
using testing::masked::reference;

class StreamedOutput : public ::testing::Test {
 protected:
  void SetUp() override {
    cpu::set_boolean_mask_tuning({.streaming = cpu::MaskStreaming::kAlways});
  }
  void TearDown() override { cpu::set_boolean_mask_tuning({}); }
};

struct Case {
  DataType dtype;
  std::vector<std::int64_t> shape;
  int axis;
  std::vector<std::uint8_t> tensor;
  std::vector<std::uint8_t> mask;
};

Case make_case(std::int64_t row_bytes, std::int64_t rows, double density, bool outer,
               std::mt19937_64& rng) {
  static const DataType kTypes[] = {DataType::kInt8, DataType::kFloat32, DataType::kFloat64};
  Case c;
  do {
    c.dtype = kTypes[rng() % std::size(kTypes)];
  } while (static_cast<std::int64_t>(type_size(c.dtype)) > row_bytes);
  const auto inner = row_bytes / static_cast<std::int64_t>(type_size(c.dtype));
  c.shape =
      outer ? std::vector<std::int64_t>{3, rows, inner} : std::vector<std::int64_t>{rows, inner};
  c.axis = outer ? 1 : 0;
  c.tensor.resize(static_cast<std::size_t>((outer ? 3 : 1) * rows * row_bytes));
  for (auto& b : c.tensor) b = static_cast<std::uint8_t>(rng());
  std::bernoulli_distribution pick(density);
  for (std::int64_t i = 0; i < rows; ++i) {
    c.mask.push_back(pick(rng) ? static_cast<std::uint8_t>(1 + rng() % 255) : 0);
  }
  return c;
}

TEST_F(StreamedOutput, MatchesTheReference) {
  std::mt19937_64 rng(1207);
  const std::int64_t kRowBytes[] = {4, 8, 16, 32};
  const double kDensities[] = {0, 1, 0.5, 0.03, 0.97};
  int i = 0;
  for (std::int64_t row_bytes : kRowBytes) {
    const std::int64_t group = 8192 / row_bytes;  // the stage's entries per group
    const std::vector<std::int64_t> sizes = {1,         63,    64,    65,    group - 1,     group,
                                             group + 1, 16383, 16384, 16385, 2 * group + 70};
    for (std::int64_t rows : sizes) {
      for (double density : kDensities) {
        for (bool outer : {false, true}) {
          if ((rows > 16384 || outer) && rng() % 3 != 0) continue;  // keep the run short
          const Case c = make_case(row_bytes, rows, density, outer, rng);
          const std::size_t esize = type_size(c.dtype);
          const std::vector<std::int64_t> mshape = {rows};
          const auto expected = reference(c.tensor, c.shape, c.mask, mshape, esize, c.axis);
          const TensorBuffer tensor = from_bytes(c.dtype, Shape(c.shape), c.tensor);
          const TensorBuffer mask = from_bytes(DataType::kBool, Shape(mshape), c.mask);
          const TensorBuffer out = boolean_mask(tensor, mask, {Device::cpu(), c.axis, {}});
          ASSERT_EQ(out.shape(), Shape(expected.shape)) << "case " << i;
          ASSERT_EQ(bytes(out), expected.bytes)
              << "case " << i << " rows " << rows << " row bytes " << row_bytes;
          // The into form clipped inside the rows, over random bytes that must stay.
          const std::int64_t capacity = std::max<std::int64_t>(expected.count - 1 - i % 70, 0);
          std::vector<std::int64_t> out_shape = expected.shape;
          out_shape[static_cast<std::size_t>(c.axis)] = capacity;
          std::int64_t out_elements = 1;
          for (std::int64_t d : out_shape) out_elements *= d;
          std::vector<std::uint8_t> before(static_cast<std::size_t>(out_elements) * esize);
          for (auto& b : before) b = static_cast<std::uint8_t>(rng());
          const auto clipped =
              reference(c.tensor, c.shape, c.mask, mshape, esize, c.axis, capacity, before);
          TensorBuffer into = from_bytes(c.dtype, Shape(out_shape), before);
          TensorBuffer count = make(DataType::kInt64, {1}, {-1});
          boolean_mask_into(tensor, mask, into, count, {Device::cpu(), c.axis, {}});
          ASSERT_EQ(bytes(into), clipped.bytes) << "case " << i << " capacity " << capacity;
          ASSERT_EQ(values(count), std::vector<double>{static_cast<double>(expected.count)});
          ++i;
        }
      }
    }
  }
  EXPECT_GT(i, 150);
}

#if defined(TENSORBUF_ISA_X86_64)
// The stage helper at every offset of its output within a 64-byte line, with a limit below,
// at and above the true count: the rows packed in order, nothing before or after them touched.
template <int kRowBytes>
void check_stage_at_every_offset() {
  std::mt19937_64 rng(kRowBytes);
  constexpr std::int64_t kWords = 70;  // past two stage groups for every row size
  std::vector<std::uint64_t> bits(kWords);
  for (auto& w : bits) w = rng() & rng();  // density about 1/4
  bits[3] = 0;
  bits[4] = ~std::uint64_t{0};
  std::vector<std::uint8_t> source(static_cast<std::size_t>(64 * kWords * kRowBytes));
  for (auto& b : source) b = static_cast<std::uint8_t>(rng());
  std::vector<std::uint8_t> packed;  // the reference: the picked rows in order
  for (std::int64_t e = 0; e < 64 * kWords; ++e) {
    if ((bits[static_cast<std::size_t>(e / 64)] >> (e % 64)) & 1) {
      packed.insert(packed.end(), source.begin() + e * kRowBytes,
                    source.begin() + (e + 1) * kRowBytes);
    }
  }
  const auto count = static_cast<std::int64_t>(packed.size()) / kRowBytes;
  constexpr std::uint8_t kGuard = 0xA5;
  for (std::int64_t offset = 0; offset < 64; ++offset) {
    for (std::int64_t limit : {count + 7, count, count - 1, count / 3, std::int64_t{5}}) {
      std::vector<std::uint8_t> buffer(static_cast<std::size_t>(count * kRowBytes + 256), kGuard);
      // 64-byte aligned base inside the vector, then the offset.
      const auto address = reinterpret_cast<std::uintptr_t>(buffer.data());
      const auto aligned = static_cast<std::int64_t>((64 - (address & 63)) & 63);
      std::uint8_t* target = buffer.data() + aligned + offset;
      const std::int64_t rows = cpu::mask_detail::compress_rows_streaming_avx512<kRowBytes>(
          bits.data(), kWords, source.data(), target, limit);
      cpu::streaming_fence();
      const std::int64_t expect_rows = std::min(limit, count);
      ASSERT_EQ(rows, expect_rows) << "offset " << offset;
      const std::vector<std::uint8_t> got(target, target + rows * kRowBytes);
      ASSERT_TRUE(std::equal(got.begin(), got.end(), packed.begin()))
          << "offset " << offset << " limit " << limit;
      for (std::uint8_t* p = buffer.data(); p < target; ++p) ASSERT_EQ(*p, kGuard) << offset;
      for (std::uint8_t* p = target + rows * kRowBytes; p < buffer.data() + buffer.size(); ++p) {
        ASSERT_EQ(*p, kGuard) << "offset " << offset << " limit " << limit;
      }
    }
  }
}

TEST(StreamedOutputStage, PacksTheRowsAtEveryOffsetAndTouchesNothingElse) {
  if (!cpu::cpu_features().avx512bw) GTEST_SKIP() << "no AVX-512 on this CPU";
  check_stage_at_every_offset<4>();
  check_stage_at_every_offset<8>();
  check_stage_at_every_offset<16>();
  check_stage_at_every_offset<32>();
}
#endif

}  // namespace
}  // namespace tensorbuf
