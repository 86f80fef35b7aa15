// boolean_mask_update, randomized: the public op on the CPU (out of place and in place) and the
// CUDA backend's driver on the host executor (both iteration orders), against the serial
// reference of boolean_mask_update/helpers.hpp, over element sizes, ranks 1-4, every
// axis, mask ranks 1..rank-axis, densities 0, 0.01, 0.5, 1, every updates form and bad shapes.
// Fixed seeds; TENSORBUF_RANDOM_CASES cases (default 300).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "core/boolean_mask_update_backends.hpp"
#include "core/plan_boolean_mask_update.hpp"
#include "kernels/boolean_mask_update.hpp"
#include "kernels/host_executor.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::mask_update::bytes;
using testing::mask_update::from_bytes;
using testing::mask_update::reference;

int random_cases() {
  if (const char* env = std::getenv("TENSORBUF_RANDOM_CASES")) {
    const int n = std::atoi(env);
    if (n > 0) return n;
  }
  return 300;
}

struct Case {
  DataType dtype = DataType::kFloat32;
  std::vector<std::int64_t> tshape, mshape, ushape;
  std::vector<std::uint8_t> tensor, mask, updates;
  int axis = 0;
  bool broadcast = true;
  std::string describe() const {
    auto dims = [](const std::vector<std::int64_t>& v) { return Shape(v).to_string(); };
    return std::string(to_string(dtype)) + " tensor " + dims(tshape) + " mask " + dims(mshape) +
           " updates " + dims(ushape) + " axis " + std::to_string(axis) +
           (broadcast ? "" : " broadcast=false");
  }
};

std::int64_t product(const std::vector<std::int64_t>& v) {
  std::int64_t p = 1;
  for (std::int64_t d : v) p *= d;
  return p;
}

Case make_case(std::mt19937_64& rng, bool large) {
  auto uniform = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
  static const DataType kTypes[] = {DataType::kBool,    DataType::kUInt8,   DataType::kInt16,
                                    DataType::kFloat16, DataType::kInt32,   DataType::kFloat32,
                                    DataType::kInt64,   DataType::kFloat64, DataType::kBFloat16,
                                    DataType::kInt8};
  Case c;
  c.dtype = kTypes[uniform(0, 9)];
  const int rank = static_cast<int>(uniform(1, 4));
  for (int i = 0; i < rank; ++i) c.tshape.push_back(chance(0.05) ? 0 : uniform(1, 5));
  const int axis = static_cast<int>(uniform(0, rank - 1));
  const int k_rank = static_cast<int>(uniform(1, rank - axis));
  if (large) {
    // One mask dim large enough for several CPU chunks (and chunks that start mid-row).
    c.tshape[static_cast<std::size_t>(axis)] = uniform(20000, 90000);
    for (int i = 0; i < rank; ++i) {
      if (i != axis && c.tshape[static_cast<std::size_t>(i)] == 0)
        c.tshape[static_cast<std::size_t>(i)] = 2;
    }
  }
  c.axis = chance(0.3) ? axis - rank : axis;
  c.mshape.assign(c.tshape.begin() + axis, c.tshape.begin() + axis + k_rank);
  if (chance(0.04)) c.mshape.back() += 1;                                  // bad mask shape
  if (chance(0.03)) c.axis = chance(0.5) ? rank - k_rank + 1 : -rank - 1;  // bad axis

  static const double kDensities[] = {0.0, 0.01, 0.5, 1.0};
  const double density = kDensities[uniform(0, 3)];
  const std::size_t esize = type_size(c.dtype);
  c.mask.resize(static_cast<std::size_t>(product(c.mshape)));
  std::int64_t n = 0;
  for (auto& b : c.mask) {
    b = chance(density) ? static_cast<std::uint8_t>(uniform(1, 255)) : 0;
    n += b != 0;
  }
  c.tensor.resize(static_cast<std::size_t>(product(c.tshape)) * esize);
  for (auto& b : c.tensor) b = static_cast<std::uint8_t>(uniform(0, 255));

  std::vector<std::int64_t> target(c.tshape.begin(), c.tshape.begin() + axis);
  target.push_back(n);
  target.insert(target.end(), c.tshape.begin() + axis + k_rank, c.tshape.end());
  c.broadcast = !chance(0.2);
  switch (uniform(0, 7)) {
    case 0:
      c.ushape = {};
      break;  // scalar
    case 1:   // [n] + trailing
      c.ushape.assign(target.begin() + axis, target.end());
      break;
    case 2:
      c.ushape = target;
      break;  // full target
    case 3:   // size-1 dims, maybe fewer leading dims
      c.ushape = target;
      for (auto& d : c.ushape) {
        if (chance(0.4)) d = 1;
      }
      while (!c.ushape.empty() && chance(0.3)) c.ushape.erase(c.ushape.begin());
      break;
    case 4:  // extra leading size-1 dims
      c.ushape = target;
      c.ushape.insert(c.ushape.begin(), static_cast<std::size_t>(uniform(1, 2)), 1);
      break;
    case 5:  // bad: one dim off by one
      c.ushape = target;
      c.ushape[static_cast<std::size_t>(
          uniform(0, static_cast<std::int64_t>(c.ushape.size()) - 1))] += 1;
      break;
    case 6:  // bad or lucky: random small shape
      for (std::int64_t i = uniform(0, 3); i > 0; --i) c.ushape.push_back(uniform(0, 3));
      break;
    default:  // [1] + trailing or [n, 1...]
      c.ushape.assign(target.begin() + axis, target.end());
      if (chance(0.5)) {
        c.ushape[0] = 1;
      } else {
        for (std::size_t i = 1; i < c.ushape.size(); ++i) c.ushape[i] = 1;
      }
  }
  c.updates.resize(static_cast<std::size_t>(product(c.ushape)) * esize);
  for (auto& b : c.updates) b = static_cast<std::uint8_t>(uniform(0, 255));
  return c;
}

std::optional<std::vector<std::uint8_t>> expected_of(const Case& c) {
  return reference(c.tensor, c.tshape, c.mask, c.mshape, c.updates, c.ushape, type_size(c.dtype),
                   c.axis, c.broadcast);
}

BooleanMaskUpdateOptions options_of(const Case& c) {
  BooleanMaskUpdateOptions o;
  o.device = Device::cpu();
  o.axis = c.axis;
  o.broadcast = c.broadcast;
  return o;
}

template <class Carrier>
core::BooleanMaskUpdateResult run_driver(kernels::HostExecutor& ex,
                                         const core::BooleanMaskUpdatePlan& plan, const Case& c,
                                         std::vector<std::uint8_t>& out, bool in_place) {
  const auto* tensor = reinterpret_cast<const Carrier*>(in_place ? out.data() : c.tensor.data());
  const auto* updates = reinterpret_cast<const Carrier*>(c.updates.data());
  auto* o = reinterpret_cast<Carrier*>(out.data());
  if (plan.layout.mask_size % 2 == 0) {  // both scan index types
    return kernels::run_boolean_mask_update_carrier<Carrier, std::int32_t>(
        ex, plan.layout, plan.required_count, c.mask.data(), tensor, updates, o);
  }
  return kernels::run_boolean_mask_update_carrier<Carrier, std::int64_t>(
      ex, plan.layout, plan.required_count, c.mask.data(), tensor, updates, o);
}

// The driver with the element's own carrier, both scan index types.
core::BooleanMaskUpdateResult run_narrow(kernels::HostExecutor& ex,
                                         const core::BooleanMaskUpdatePlan& plan, const Case& c,
                                         std::vector<std::uint8_t>& out, bool in_place) {
  switch (type_size(c.dtype)) {
    case 1:
      return run_driver<std::uint8_t>(ex, plan, c, out, in_place);
    case 2:
      return run_driver<std::uint16_t>(ex, plan, c, out, in_place);
    case 4:
      return run_driver<std::uint32_t>(ex, plan, c, out, in_place);
    default:
      return run_driver<std::uint64_t>(ex, plan, c, out, in_place);
  }
}

// Runs the driver on the host executor (`widened`: as the CUDA backend calls it, with the
// widest carrier); nullopt when the plan or the count check rejects.
std::optional<std::vector<std::uint8_t>> driver_result(
    const Case& c, bool in_place, bool reverse, bool widened,
    kernels::MaskUpdatePass pass = kernels::MaskUpdatePass::kElements,
    kernels::MaskUpdateRanks ranks = kernels::MaskUpdateRanks::kCountThenScan) {
  const TensorBuffer t = from_bytes(c.dtype, Shape(c.tshape), c.tensor);
  const TensorBuffer m = from_bytes(DataType::kBool, Shape(c.mshape), c.mask);
  const TensorBuffer u = from_bytes(c.dtype, Shape(c.ushape), c.updates);
  core::BooleanMaskUpdatePlan plan;
  try {
    plan = core::plan_boolean_mask_update(t, m, u, options_of(c));
  } catch (const InvalidArgumentError&) {
    return std::nullopt;
  }
  // Out of place the output starts as garbage: the fused pass must write every byte.
  std::vector<std::uint8_t> out =
      in_place ? c.tensor : std::vector<std::uint8_t>(c.tensor.size(), 0xA5);
  kernels::HostExecutor ex(reverse);
  core::BooleanMaskUpdateResult result;
  if (widened) {
    core::BooleanMaskUpdateBuffers buffers;
    buffers.tensor = in_place ? out.data() : c.tensor.data();
    buffers.mask = c.mask.data();
    buffers.updates = c.updates.data();
    buffers.out = out.data();
    result = kernels::run_boolean_mask_update(ex, plan, buffers, pass, ranks);
  } else {
    result = run_narrow(ex, plan, c, out, in_place);
  }
  // n reaches the host only when the updates shape needs it checked.
  EXPECT_EQ(ex.reads(), plan.required_count >= 0 && plan.layout.mask_size > 0 ? 1 : 0);
  if (!result.applied()) {
    // Rejected for the count alone: n (counted here) against the rows `updates` has; the first
    // row only one side has is named.
    std::int64_t n = 0;
    for (const std::uint8_t byte : c.mask) n += byte != 0 ? 1 : 0;
    EXPECT_EQ(result.count, n);
    EXPECT_EQ(result.first_bad_index, std::min(n, plan.required_count));
    if (in_place) {
      EXPECT_EQ(out, c.tensor) << "in-place driver wrote before failing";
    }
    return std::nullopt;
  }
  return out;
}

// The CPU backend's result follows the op protocol (core::OpResult): a count that does not fit
// `updates` is rejected with nothing written and the first row only one side has named; a count
// that fits is applied. The mask [4] with n true entries against updates [2] (n must be 2).
TEST(BooleanMaskUpdateResult, TheCpuBackendNamesTheFirstUnpairedRow) {
  for (const std::vector<std::uint8_t>& mask :
       {std::vector<std::uint8_t>{1, 0, 1, 1}, std::vector<std::uint8_t>{0, 0, 7, 0},
        std::vector<std::uint8_t>{0, 1, 0, 1}}) {
    const std::int64_t n = std::count_if(mask.begin(), mask.end(), [](auto b) { return b != 0; });
    SCOPED_TRACE("n = " + std::to_string(n));
    const TensorBuffer t = from_bytes(DataType::kUInt8, Shape{4}, {10, 11, 12, 13});
    const TensorBuffer m = from_bytes(DataType::kBool, Shape{4}, mask);
    const TensorBuffer u = from_bytes(DataType::kUInt8, Shape{2}, {20, 21});
    BooleanMaskUpdateOptions options;
    options.broadcast = false;
    const core::BooleanMaskUpdatePlan plan = core::plan_boolean_mask_update(t, m, u, options);
    ASSERT_EQ(plan.required_count, 2);
    std::vector<std::uint8_t> out = {10, 11, 12, 13};
    core::BooleanMaskUpdateBuffers buffers;
    buffers.tensor = out.data();
    buffers.mask = mask.data();
    buffers.updates = u.host_bytes();
    buffers.out = out.data();
    const core::BooleanMaskUpdateResult result = cpu::boolean_mask_update(plan, buffers);
    EXPECT_EQ(result.count, n);
    if (n == 2) {
      EXPECT_TRUE(result.applied());
      EXPECT_EQ(result.first_bad_index, -1);
      EXPECT_EQ(out, (std::vector<std::uint8_t>{10, 20, 12, 21}));
    } else {
      EXPECT_FALSE(result.applied());
      EXPECT_EQ(result.first_bad_index, n < 2 ? n : 2);
      EXPECT_EQ(out, (std::vector<std::uint8_t>{10, 11, 12, 13}));
    }
  }
}

TEST(BooleanMaskUpdateRandom, CpuMatchesReference) {
  std::mt19937_64 rng(20261130);
  const int cases = random_cases();
  int valid = 0;
  for (int i = 0; i < cases; ++i) {
    const Case c = make_case(rng, i % 25 == 24);
    SCOPED_TRACE("case " + std::to_string(i) + ": " + c.describe());
    const auto expected = expected_of(c);
    const TensorBuffer t = from_bytes(c.dtype, Shape(c.tshape), c.tensor);
    const TensorBuffer m = from_bytes(DataType::kBool, Shape(c.mshape), c.mask);
    const TensorBuffer u = from_bytes(c.dtype, Shape(c.ushape), c.updates);
    TensorBuffer target = from_bytes(c.dtype, Shape(c.tshape), c.tensor);
    if (!expected) {
      EXPECT_THROW((void)boolean_mask_update(t, m, u, options_of(c)), InvalidArgumentError);
      EXPECT_THROW(boolean_mask_update_in_place(target, m, u, options_of(c)), InvalidArgumentError);
      EXPECT_EQ(bytes(target), c.tensor);
      continue;
    }
    ++valid;
    EXPECT_EQ(bytes(boolean_mask_update(t, m, u, options_of(c))), *expected);
    boolean_mask_update_in_place(target, m, u, options_of(c));
    EXPECT_EQ(bytes(target), *expected);
    EXPECT_EQ(bytes(t), c.tensor);
    EXPECT_EQ(bytes(m), c.mask);
    EXPECT_EQ(bytes(u), c.updates);
  }
  // The generator must produce mostly valid cases, or the comparison says little.
  EXPECT_GT(valid, cases / 3);
}

TEST(BooleanMaskUpdateRandom, CudaDriverOnHostExecutorMatchesReference) {
  std::mt19937_64 rng(977);
  const int cases = random_cases();
  for (int i = 0; i < cases; ++i) {
    const Case c = make_case(rng, i % 50 == 49);
    SCOPED_TRACE("case " + std::to_string(i) + ": " + c.describe());
    const auto expected = expected_of(c);
    for (bool in_place : {false, true}) {
      for (bool reverse : {true, false}) {
        for (bool widened : {false, true}) {
          SCOPED_TRACE(::testing::Message() << "in_place " << in_place << " reverse " << reverse
                                            << " widened " << widened);
          const auto got = driver_result(c, in_place, reverse, widened);
          ASSERT_EQ(got.has_value(), expected.has_value());
          if (got) {
            EXPECT_EQ(*got, *expected);
          }
        }
      }
    }
  }
}

// Every variant of the CUDA backend's tuning switches
// (kernels/boolean_mask_update_variants.hpp): write passes and tile scans (the default pair is
// the test above).
TEST(BooleanMaskUpdateRandom, EveryPassVariantOnHostExecutorMatchesReference) {
  std::mt19937_64 rng(4242);
  const int cases = random_cases();
  const kernels::MaskUpdatePass passes[] = {kernels::MaskUpdatePass::kElements,
                                            kernels::MaskUpdatePass::kTiles,
                                            kernels::MaskUpdatePass::kCopyThenTiles};
  for (int i = 0; i < cases; ++i) {
    const Case c = make_case(rng, i % 50 == 49);
    SCOPED_TRACE("case " + std::to_string(i) + ": " + c.describe());
    const auto expected = expected_of(c);
    for (int variant = 1; variant < 6; ++variant) {
      const kernels::MaskUpdatePass pass = passes[variant % 3];
      const auto ranks = variant < 3 ? kernels::MaskUpdateRanks::kCountThenScan
                                     : kernels::MaskUpdateRanks::kScanOfCounts;
      for (bool in_place : {false, true}) {
        for (bool reverse : {true, false}) {
          SCOPED_TRACE(::testing::Message()
                       << "pass " << static_cast<int>(pass) << " ranks " << static_cast<int>(ranks)
                       << " in_place " << in_place << " reverse " << reverse);
          const auto got = driver_result(c, in_place, reverse, /*widened=*/true, pass, ranks);
          ASSERT_EQ(got.has_value(), expected.has_value());
          if (got) {
            EXPECT_EQ(*got, *expected);
          }
        }
      }
    }
  }
}

// [2, 3, 8] float32 tensor, 1-D mask on axis 1, updates [2, n, 8] (row stride 8, lead stride
// 8 * n): the widest carrier is 4 floats when the pointers allow 16 bytes.
core::MaskUpdateLayout layout_2x3x8(std::int64_t lead_stride) {
  core::MaskUpdateLayout layout;
  layout.outer = 2;
  layout.mask_size = 3;
  layout.inner = 8;
  layout.lead_rank = 1;
  layout.lead_dims[0] = 2;
  layout.lead_strides[0] = lead_stride;
  layout.row_stride = 8;
  layout.trail_rank = 1;
  layout.trail_dims[0] = 8;
  layout.trail_strides[0] = 1;
  layout.trail_contiguous = true;
  layout.trail_broadcast = false;
  return layout;
}

TEST(BooleanMaskUpdateWiden, TakesTheWidestCarrierThatDividesEverything) {
  core::MaskUpdateLayout layout = layout_2x3x8(16);
  EXPECT_EQ(kernels::mask_update_widen(layout, 4, 16, 256), 4);
  EXPECT_EQ(layout.inner, 2);
  EXPECT_EQ(layout.row_stride, 2);
  EXPECT_EQ(layout.lead_strides[0], 4);

  layout = layout_2x3x8(16);
  EXPECT_EQ(kernels::mask_update_widen(layout, 4, 16, 8), 2);  // pointers only 8-byte aligned
  EXPECT_EQ(layout.inner, 4);

  layout = layout_2x3x8(6);  // a lead stride of 6 elements allows pairs only
  EXPECT_EQ(kernels::mask_update_widen(layout, 4, 16, 256), 2);
  EXPECT_EQ(layout.lead_strides[0], 3);

  layout = layout_2x3x8(16);
  layout.trail_contiguous = false;  // strided trailing updates: element by element
  EXPECT_EQ(kernels::mask_update_widen(layout, 4, 16, 256), 1);
  EXPECT_EQ(layout.inner, 8);
}

}  // namespace
}  // namespace tensorbuf
