// boolean_mask and boolean_mask_into against the independent reference (reference.hpp) on
// random cases (random_case.hpp), on every device, and on the CPU again with its x86 fast paths
// off (cpu::set_simd_enabled(false): the portable twins on an AVX-512 machine). Fixed seeds;
// TENSORBUF_RANDOM_CASES cases (default 300).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "boolean_mask/random_case.hpp"
#include "boolean_mask/reference.hpp"
#include "boolean_mask_update/helpers.hpp"
#include "cpu/cpu_features.hpp"
#include "support/devices.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::mask_update::bytes;
using testing::mask_update::from_bytes;
using testing::mask_update::make;
using testing::mask_update::values;
using testing::masked::random_case;
using testing::masked::random_cases;
using testing::masked::RandomCase;
using testing::masked::reference;

class BooleanMaskRandom : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(GetParam()); }
};

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(BooleanMaskRandom);

// boolean_mask of case c against the reference.
void expect_sized_form(const RandomCase& c, Device device, int i) {
  const auto expected =
      reference(c.tensor, c.shape, c.mask, c.mask_shape, type_size(c.dtype), c.axis);
  const TensorBuffer out = boolean_mask(from_bytes(c.dtype, Shape(c.shape), c.tensor),
                                        from_bytes(DataType::kBool, Shape(c.mask_shape), c.mask),
                                        {device, c.axis_as_given, {}});
  ASSERT_EQ(out.shape(), Shape(expected.shape)) << "case " << i;
  ASSERT_EQ(bytes(out), expected.bytes) << "case " << i;
}

// boolean_mask_into of case c into an out of `capacity` slices filled with random bytes
// (those past the count must stay), against the reference; count is the true n.
void expect_into_form(const RandomCase& c, std::int64_t capacity, Device device,
                      std::mt19937_64& rng, int i) {
  const std::size_t esize = type_size(c.dtype);
  const auto sized = reference(c.tensor, c.shape, c.mask, c.mask_shape, esize, c.axis);
  std::vector<std::int64_t> out_shape = sized.shape;
  out_shape[static_cast<std::size_t>(c.axis)] = capacity;
  std::int64_t out_elements = 1;
  for (std::int64_t d : out_shape) out_elements *= d;
  std::vector<std::uint8_t> before(static_cast<std::size_t>(out_elements) * esize);
  for (auto& b : before) b = static_cast<std::uint8_t>(rng());
  const auto expected =
      reference(c.tensor, c.shape, c.mask, c.mask_shape, esize, c.axis, capacity, before);
  TensorBuffer out = from_bytes(c.dtype, Shape(out_shape), before);
  TensorBuffer count = make(DataType::kInt64, {1}, {-1});
  boolean_mask_into(from_bytes(c.dtype, Shape(c.shape), c.tensor),
                    from_bytes(DataType::kBool, Shape(c.mask_shape), c.mask), out, count,
                    {device, c.axis_as_given, {}});
  ASSERT_EQ(bytes(out), expected.bytes) << "case " << i << " capacity " << capacity;
  ASSERT_EQ(values(count), std::vector<double>{static_cast<double>(sized.count)}) << i;
}

void check_sized_form(Device device) {
  std::mt19937_64 rng(1205);
  for (int i = 0; i < random_cases(); ++i) {
    expect_sized_form(random_case(rng), device, i);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

void check_into_form(Device device) {
  std::mt19937_64 rng(51205);
  for (int i = 0; i < random_cases(); ++i) {
    const RandomCase c = random_case(rng);
    const std::int64_t n =
        reference(c.tensor, c.shape, c.mask, c.mask_shape, type_size(c.dtype), c.axis).count;
    // Below, at and above n.
    const std::int64_t capacity = std::vector<std::int64_t>{n / 2, n, n + 3}[rng() % 3];
    expect_into_form(c, capacity, device, rng, i);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST_P(BooleanMaskRandom, SizedFormMatchesTheReference) { check_sized_form(GetParam()); }

TEST_P(BooleanMaskRandom, IntoFormMatchesTheReferenceAtEveryCapacity) {
  check_into_form(GetParam());
}

// The portable twins where the CPU has AVX-512 (restored however the test ends).
class WithoutSimd : public ::testing::Test {
 protected:
  void SetUp() override { cpu::set_simd_enabled(false); }
  void TearDown() override { cpu::set_simd_enabled(true); }
};

TEST_F(WithoutSimd, SizedFormMatchesTheReference) { check_sized_form(Device::cpu()); }

TEST_F(WithoutSimd, IntoFormMatchesTheReferenceAtEveryCapacity) {
  check_into_form(Device::cpu());
}

// Rows of 16, 32 and 64 bytes (the CPU's wide-row select and AVX-512 compress) over masks
// past 64 entries and past a count block, odd lengths (a tail after the last 64-entry word),
// at densities where every block is dense enough for the select, with SIMD on and off.
RandomCase wide_row_case(std::mt19937_64& rng) {
  static const DataType kTypes[] = {DataType::kInt8, DataType::kFloat32, DataType::kFloat64};
  RandomCase c;
  c.dtype = kTypes[rng() % std::size(kTypes)];
  const std::int64_t row_bytes = std::int64_t{16} << (rng() % 3);
  const auto inner = row_bytes / static_cast<std::int64_t>(type_size(c.dtype));
  const std::int64_t rows = std::vector<std::int64_t>{64, 129, 1001, 16385, 40003}[rng() % 5];
  const bool outer = rng() % 4 == 0;
  c.shape = outer ? std::vector<std::int64_t>{2, rows, inner} : std::vector<std::int64_t>{rows, inner};
  c.axis = outer ? 1 : 0;
  c.axis_as_given = c.axis;
  c.mask_shape = {rows};
  c.tensor.resize(static_cast<std::size_t>((outer ? 2 : 1) * rows * row_bytes));
  for (auto& b : c.tensor) b = static_cast<std::uint8_t>(rng());
  std::bernoulli_distribution pick(std::vector<double>{0.3, 0.5, 0.9, 1}[rng() % 4]);
  for (std::int64_t i = 0; i < rows; ++i) {
    c.mask.push_back(pick(rng) ? static_cast<std::uint8_t>(1 + rng() % 255) : 0);
  }
  return c;
}

void check_wide_rows(Device device) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 60; ++i) {
    const RandomCase c = wide_row_case(rng);
    expect_sized_form(c, device, i);
    if (::testing::Test::HasFatalFailure()) return;
    const std::int64_t n =
        reference(c.tensor, c.shape, c.mask, c.mask_shape, type_size(c.dtype), c.axis).count;
    // The into form clipped inside the rows (one row past a 64-entry word too) and with room.
    const std::int64_t capacity = std::vector<std::int64_t>{
        n / 2 + 1, std::max<std::int64_t>(n - 3, 0), n + 5}[i % 3];
    expect_into_form(c, capacity, device, rng, i);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST_P(BooleanMaskRandom, WideRowsMatchTheReference) { check_wide_rows(GetParam()); }

TEST_F(WithoutSimd, WideRowsMatchTheReference) { check_wide_rows(Device::cpu()); }

}  // namespace
}  // namespace tensorbuf
