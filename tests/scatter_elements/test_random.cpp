// scatter_elements against the independent reference (reference.hpp) on random cases, on every
// device and under both policies, out of place and in place: kDrop equals the reference with
// bad positions skipped, kError equals it when every index is good and names the first bad one
// otherwise (an in-place tensor then unchanged). CUDA runs deterministic (bit-equal to the CPU)
// and, for the reductions whose random values make any order exact, with atomics too. Fixed
// seeds; TENSORBUF_RANDOM_CASES cases (default 300).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "boolean_mask_update/helpers.hpp"
#include "scatter_elements/reference.hpp"
#include "support/devices.hpp"
#include "support/error_text.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::invalid_argument_text;
using testing::mask_update::bytes;
using testing::mask_update::from_bytes;
namespace el = testing::elements;
namespace sc = testing::scattering;

class ScatterElementsRandom : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(GetParam()); }
};

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(ScatterElementsRandom);

TEST_P(ScatterElementsRandom, BothPoliciesMatchTheReference) {
  std::mt19937_64 rng(3613);
  int rejected = 0;
  int accepted = 0;
  for (int i = 0; i < el::random_cases(); ++i) {
    const sc::ScatterCase s = sc::random_scatter_case(rng, /*with_bad=*/true);
    const el::Case& c = s.c;
    const std::vector<std::uint8_t> expected = sc::reference(c, s.updates, s.reduction);
    std::string text;
    const std::int64_t bad = el::first_bad(c, &text);
    const TensorBuffer tensor = from_bytes(c.dtype, Shape(c.tensor_shape), c.tensor);
    const TensorBuffer indices = el::indices_buffer(c);
    const TensorBuffer updates = from_bytes(c.dtype, Shape(c.indices_shape), s.updates);
    // Atomics give the reference's bits unless duplicates of kNone race.
    const bool atomics_exact = s.reduction != Reduction::kNone;
    for (bool deterministic : {true, false}) {
      if (!deterministic && GetParam().is_cuda() && !atomics_exact) continue;
      const ScatterElementsOptions drop{GetParam(), OutOfBoundsPolicy::kDrop, deterministic,
                                        c.axis, s.reduction, {}};
      ASSERT_EQ(bytes(scatter_elements(tensor, indices, updates, drop)), expected) << "case " << i;
      const ScatterElementsOptions error{GetParam(), OutOfBoundsPolicy::kError, deterministic,
                                         c.axis, s.reduction, {}};
      TensorBuffer target = from_bytes(c.dtype, Shape(c.tensor_shape), c.tensor);
      if (bad >= 0) {
        ASSERT_EQ(invalid_argument_text([&] { scatter_elements(tensor, indices, updates, error); }),
                  text)
            << "case " << i;
        ASSERT_EQ(invalid_argument_text(
                      [&] { scatter_elements_in_place(target, indices, updates, error); }),
                  text);
        ASSERT_EQ(bytes(target), c.tensor) << "case " << i << ": an error writes nothing";
      } else {
        ASSERT_EQ(bytes(scatter_elements(tensor, indices, updates, error)), expected)
            << "case " << i;
        scatter_elements_in_place(target, indices, updates, error);
        ASSERT_EQ(bytes(target), expected) << "case " << i;
      }
    }
    rejected += bad >= 0;
    accepted += bad < 0;
    ASSERT_EQ(bytes(tensor), c.tensor);
  }
  EXPECT_GT(rejected, el::random_cases() / 20);
  EXPECT_GT(accepted, el::random_cases() / 4);
}

}  // namespace
}  // namespace tensorbuf
