// The CUDA backend's driver (src/kernels/boolean_mask.hpp) on the host executor, whose reverse
// order flushes out any assumption about the order threads run in: both forms against the
// reference on random cases, unaligned pointers (narrower carriers), and the into form
// captured once and replayed on new data, as a CUDA graph would (no host read in it).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "boolean_mask/random_case.hpp"
#include "boolean_mask/reference.hpp"
#include "boolean_mask_update/helpers.hpp"
#include "core/plan_boolean_mask.hpp"
#include "kernels/boolean_mask.hpp"
#include "kernels/host_executor.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::mask_update::from_bytes;
using testing::masked::random_case;
using testing::masked::random_cases;
using testing::masked::RandomCase;
using testing::masked::reference;

core::BooleanMaskPlan plan_of(const RandomCase& c) {
  const TensorBuffer tensor = from_bytes(c.dtype, Shape(c.shape), c.tensor);
  const TensorBuffer mask = from_bytes(DataType::kBool, Shape(c.mask_shape), c.mask);
  return core::plan_boolean_mask(tensor, mask, {Device::cpu(), c.axis, {}});
}

// The sized form, the tensor copied to `offset` bytes past an aligned address.
std::vector<std::uint8_t> run_sized(const RandomCase& c, std::size_t offset,
                                    std::int64_t& count) {
  const core::BooleanMaskPlan plan = plan_of(c);
  std::vector<std::uint8_t> tensor(c.tensor.size() + 16);
  if (!c.tensor.empty()) {  // an empty vector's data() may be null: memcpy must not see it
    std::memcpy(tensor.data() + offset, c.tensor.data(), c.tensor.size());
  }
  std::vector<std::uint8_t> out;
  const std::size_t row_bytes = static_cast<std::size_t>(plan.outer * plan.inner) *
                                plan.element_size;
  kernels::HostExecutor ex;
  core::BooleanMaskBuffers buffers{tensor.data() + offset, c.mask.data(), nullptr, nullptr};
  const core::BooleanMaskResult result =
      kernels::run_boolean_mask(ex, plan, buffers, [&](std::int64_t n) -> void* {
        out.assign(static_cast<std::size_t>(n) * row_bytes + offset, 0xee);
        return out.data() + offset;
      });
  count = result.count;
  return std::vector<std::uint8_t>(out.begin() + static_cast<std::ptrdiff_t>(offset), out.end());
}

TEST(BooleanMaskDriver, SizedFormOnTheHostExecutorMatchesTheReference) {
  std::mt19937_64 rng(90210);
  for (int i = 0; i < random_cases(); ++i) {
    const RandomCase c = random_case(rng);
    const auto expected =
        reference(c.tensor, c.shape, c.mask, c.mask_shape, type_size(c.dtype), c.axis);
    for (std::size_t offset : {0, 1, 2, 4, 8}) {
      std::int64_t count = -1;
      ASSERT_EQ(run_sized(c, offset, count), expected.bytes) << "case " << i << " at " << offset;
      ASSERT_EQ(count, expected.count);
    }
  }
}

TEST(BooleanMaskDriver, IntoFormIsCapturedOnceAndReplayedOnNewData) {
  std::mt19937_64 rng(777);
  for (int i = 0; i < random_cases() / 4 + 1; ++i) {
    RandomCase c = random_case(rng);
    core::BooleanMaskPlan plan = plan_of(c);
    const std::size_t esize = type_size(c.dtype);
    const std::int64_t capacity = static_cast<std::int64_t>(rng() % 9);
    plan.capacity = capacity;
    std::vector<std::int64_t> out_shape = c.shape;
    out_shape.erase(out_shape.begin() + c.axis,
                    out_shape.begin() + c.axis + static_cast<std::ptrdiff_t>(c.mask_shape.size()));
    out_shape.insert(out_shape.begin() + c.axis, capacity);
    std::int64_t out_elements = 1;
    for (std::int64_t d : out_shape) out_elements *= d;
    std::vector<std::uint8_t> out(static_cast<std::size_t>(out_elements) * esize, 0x5a);
    std::int64_t count = -1;
    std::vector<std::uint8_t> tensor = c.tensor;
    std::vector<std::uint8_t> mask = c.mask;
    kernels::HostExecutor ex;
    ex.begin_capture();
    kernels::run_boolean_mask(ex, plan, {tensor.data(), mask.data(), out.data(), &count},
                              [](std::int64_t) -> void* { return nullptr; });
    ex.end_capture();
    EXPECT_EQ(count, -1) << "nothing runs while capturing";
    for (int replay = 0; replay < 2; ++replay) {
      for (auto& b : tensor) b = static_cast<std::uint8_t>(rng());
      for (auto& b : mask) b = rng() % 2 == 0 ? 0 : 1;
      const std::vector<std::uint8_t> before = out;
      const auto expected =
          reference(tensor, c.shape, mask, c.mask_shape, esize, c.axis, capacity, before);
      ex.replay();
      ASSERT_EQ(out, expected.bytes) << "case " << i << " replay " << replay;
      ASSERT_EQ(count, expected.count);
    }
  }
}

}  // namespace
}  // namespace tensorbuf
