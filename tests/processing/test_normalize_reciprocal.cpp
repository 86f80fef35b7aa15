// A uint8 normalize step's division-free form (src/cpu/normalize_reciprocal.cpp): every one of
// the 256 inputs of every channel, with and without the form, bit for bit against the division
// written here; parameters whose form is wrong must keep the division.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "cpu/cpu_features.hpp"
#include "cpu/processing_tuning.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

const std::vector<float> kImageNetMeans = {123.675f, 116.28f, 103.53f};
const std::vector<float> kImageNetStddevs = {58.395f, 57.12f, 57.375f};

// [781, C], element k holding byte (k / C) % 256 at channel k % C: every byte at every
// channel, three times over, with rows that leave the vector loops mid-period.
TensorBuffer every_byte(std::int64_t channels) {
  const std::int64_t rows = 781;
  const std::int64_t n = rows * channels;
  TensorBuffer x = TensorBuffer::create_fixed_size({rows, channels}, DataType::kUInt8);
  auto* p = static_cast<std::uint8_t*>(x.mutable_host_bytes());
  for (std::int64_t k = 0; k < n; ++k) p[k] = static_cast<std::uint8_t>(k / channels % 256);
  return x;
}

// The reference: TFLite Support's NormalizeOp, (float(x) - mean) / stddev, as float32 bits or
// rounded to float16 (the library's conversion, tested on its own in tests/core).
std::vector<std::uint32_t> reference(const TensorBuffer& x, const std::vector<float>& means,
                                     const std::vector<float>& stddevs, bool half) {
  const auto* p = static_cast<const std::uint8_t*>(x.host_bytes());
  const std::int64_t n = x.shape().num_elements();
  const auto channels = static_cast<std::int64_t>(means.size());
  std::vector<std::uint32_t> out(static_cast<std::size_t>(n));
  for (std::int64_t k = 0; k < n; ++k) {
    const auto c = static_cast<std::size_t>(k % channels);
    const float y = (static_cast<float>(p[k]) - means[c]) / stddevs[c];
    out[static_cast<std::size_t>(k)] = half ? float16(y).bits : std::bit_cast<std::uint32_t>(y);
  }
  return out;
}

std::vector<std::uint32_t> bits_of(const TensorBuffer& y) {
  const std::int64_t n = y.shape().num_elements();
  std::vector<std::uint32_t> out(static_cast<std::size_t>(n));
  for (std::int64_t k = 0; k < n; ++k) {
    if (y.data_type() == DataType::kFloat16) {
      std::uint16_t h = 0;
      std::memcpy(&h, static_cast<const std::uint8_t*>(y.host_bytes()) + 2 * k, 2);
      out[static_cast<std::size_t>(k)] = h;
    } else {
      std::memcpy(&out[static_cast<std::size_t>(k)],
                  static_cast<const std::uint8_t*>(y.host_bytes()) + 4 * k, 4);
    }
  }
  return out;
}

// The step's output under `use` (the table path off: the direct loops are under test).
std::vector<std::uint32_t> run(const TensorBuffer& x, const std::vector<float>& means,
                               const std::vector<float>& stddevs, bool half,
                               cpu::ProcessDivideUse use) {
  std::vector<ProcessStep> steps = {normalize_op(means, stddevs)};
  if (half) steps.push_back(cast_op(DataType::kFloat16));
  cpu::set_process_table_use(cpu::ProcessTableUse::kNever);
  cpu::set_process_divide_use(use);
  const TensorBuffer y = Processor(steps).run(x);
  cpu::set_process_divide_use(cpu::ProcessDivideUse::kAuto);
  cpu::set_process_table_use(cpu::ProcessTableUse::kAuto);
  return bits_of(y);
}

// The same on a given Processor (which keeps its check from one run to the next).
std::vector<std::uint32_t> run_on(const Processor& p, const TensorBuffer& x,
                                  cpu::ProcessDivideUse use) {
  cpu::set_process_table_use(cpu::ProcessTableUse::kNever);
  cpu::set_process_divide_use(use);
  const TensorBuffer y = p.run(x);
  cpu::set_process_divide_use(cpu::ProcessDivideUse::kAuto);
  cpu::set_process_table_use(cpu::ProcessTableUse::kAuto);
  return bits_of(y);
}

// Index of the first difference, or -1.
std::int64_t first_difference(const std::vector<std::uint32_t>& a,
                              const std::vector<std::uint32_t>& b) {
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (a[k] != b[k]) return static_cast<std::int64_t>(k);
  }
  return a.size() == b.size() ? -1 : static_cast<std::int64_t>(a.size());
}

class NormalizeReciprocal : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { cpu::set_simd_enabled(GetParam()); }
  void TearDown() override {
    cpu::set_simd_enabled(true);
    cpu::set_process_divide_use(cpu::ProcessDivideUse::kAuto);
    cpu::set_process_table_use(cpu::ProcessTableUse::kAuto);
  }
  static bool has_form() { return cpu::cpu_features().avx512bw; }
};

INSTANTIATE_TEST_SUITE_P(Simd, NormalizeReciprocal, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& param) {
                           return param.param ? "Simd" : "Portable";
                         });

// Random means and stddevs (magnitudes 2^-20 .. 2^20, either sign), 1 to 17 channels, float32
// and float16 outputs: the default (form where checked), the division, and the form unchecked
// wherever the check passed, all equal the reference.
TEST_P(NormalizeReciprocal, EveryByteEqualsTheDivision) {
  std::mt19937 rng(37);
  std::uniform_real_distribution<float> mean_dist(-300.0f, 300.0f);
  std::uniform_real_distribution<float> exponent(-20.0f, 20.0f);
  int checked = 0;
  int channel_sets = 0;
  for (std::int64_t channels : {1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 17}) {
    const TensorBuffer x = every_byte(channels);
    for (int trial = 0; trial < 4; ++trial) {
      std::vector<float> means(static_cast<std::size_t>(channels));
      std::vector<float> stddevs(means.size());
      bool exact = true;
      for (std::size_t c = 0; c < means.size(); ++c) {
        // Whole means in trial 0: some n are zero (the quotient's sign from the stddev's).
        means[c] = trial == 0 ? std::round(mean_dist(rng)) : mean_dist(rng);
        stddevs[c] = (rng() % 2 ? -1.0f : 1.0f) * std::exp2(exponent(rng));
        exact = exact && cpu::normalize_reciprocal_exact(means[c], stddevs[c]);
      }
      checked += exact ? 1 : 0;
      ++channel_sets;
      for (bool half : {false, true}) {
        const std::string what = std::to_string(channels) + " channels, trial " +
                                 std::to_string(trial) + (half ? ", float16" : ", float32");
        const std::vector<std::uint32_t> expected = reference(x, means, stddevs, half);
        EXPECT_EQ(
            first_difference(run(x, means, stddevs, half, cpu::ProcessDivideUse::kAuto), expected),
            -1)
            << what;
        EXPECT_EQ(
            first_difference(run(x, means, stddevs, half, cpu::ProcessDivideUse::kNever), expected),
            -1)
            << what;
        if (exact) {
          EXPECT_EQ(first_difference(
                        run(x, means, stddevs, half, cpu::ProcessDivideUse::kUnchecked), expected),
                    -1)
              << what;
        }
      }
    }
  }
  // The form is exact for ordinary parameters: most sets took it (where the CPU has it).
  if (has_form()) {
    EXPECT_GT(checked, channel_sets * 3 / 4) << checked << " of " << channel_sets;
  } else {
    EXPECT_EQ(checked, 0);
  }
}

// ImageNet's stddevs: the bare product n * (1 / s) is off for some bytes (so the FMA
// correction is what makes the form exact), and the corrected form passes the check.
TEST_P(NormalizeReciprocal, ImageNetNeedsTheCorrectionAndPasses) {
  for (std::size_t c = 0; c < 3; ++c) {
    const float m = kImageNetMeans[c];
    const float s = kImageNetStddevs[c];
    const float r = 1.0f / s;
    int product_off = 0;
    for (int v = 0; v < 256; ++v) {
      const float n = static_cast<float>(v) - m;
      product_off += std::bit_cast<std::uint32_t>(n * r) != std::bit_cast<std::uint32_t>(n / s);
    }
    EXPECT_GT(product_off, 0) << c;
    EXPECT_EQ(cpu::normalize_reciprocal_exact(m, s), has_form()) << c;
  }
  const TensorBuffer x = every_byte(3);
  for (bool half : {false, true}) {
    const std::vector<std::uint32_t> expected =
        reference(x, kImageNetMeans, kImageNetStddevs, half);
    for (cpu::ProcessDivideUse use : {cpu::ProcessDivideUse::kAuto, cpu::ProcessDivideUse::kNever,
                                      cpu::ProcessDivideUse::kUnchecked}) {
      EXPECT_EQ(first_difference(run(x, kImageNetMeans, kImageNetStddevs, half, use), expected), -1)
          << half << " " << static_cast<int>(use);
    }
  }
}

// Parameters whose form is wrong: a stddev so small that n / s overflows (the form gives NaN
// there: q0 = inf, then inf - inf), NaN and infinite ones (a zero one is refused earlier). The
// check fails, the default keeps the division (equal to the reference), and the unchecked form
// differs from it, so the default really did not take the form.
TEST_P(NormalizeReciprocal, FailedCheckKeepsTheDivision) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  struct Case {
    std::vector<float> means, stddevs;
    bool form_differs;  // the unchecked form's output differs from the division somewhere
  };
  const std::vector<Case> cases = {
      {{0.5f, 116.28f, 103.53f}, {1e-38f, 57.12f, 57.375f}, true},
      {{123.675f}, {-2e-38f}, true},
      {{10.0f, 20.0f}, {inf, 3.0f}, true},
      {{10.0f, 20.0f}, {3.0f, nan}, false},  // NaN either way (payload kept by both)
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& k = cases[i];
    bool exact = true;
    for (std::size_t c = 0; c < k.means.size(); ++c) {
      exact = exact && cpu::normalize_reciprocal_exact(k.means[c], k.stddevs[c]);
    }
    if (k.form_differs) {
      EXPECT_FALSE(exact) << i;
    }
    const TensorBuffer x = every_byte(static_cast<std::int64_t>(k.means.size()));
    for (bool half : {false, true}) {
      const std::vector<std::uint32_t> expected = reference(x, k.means, k.stddevs, half);
      EXPECT_EQ(first_difference(run(x, k.means, k.stddevs, half, cpu::ProcessDivideUse::kAuto),
                                 expected),
                -1)
          << i << " " << half;
      const std::int64_t unchecked = first_difference(
          run(x, k.means, k.stddevs, half, cpu::ProcessDivideUse::kUnchecked), expected);
      if (has_form() && k.form_differs) {
        EXPECT_NE(unchecked, -1) << i << " " << half;
      } else if (!has_form()) {
        EXPECT_EQ(unchecked, -1) << i << " " << half;  // the division: no form here
      }
    }
  }
}

// Whether n * r rounded to float16 is n / s rounded to float16 for every byte (the test's own
// arithmetic: no FMA contraction without -mfma).
bool half_product_rounds_alike(float m, float s) {
  const float r = 1.0f / s;
  for (int v = 0; v < 256; ++v) {
    const float n = static_cast<float>(v) - m;
    if (float16(n * r).bits != float16(n / s).bits) return false;
  }
  return true;
}

// float16 outputs take the bare product where its float16 rounding is the division's for every
// byte: ImageNet's parameters (whose float32 product is off) do; parameters whose product rounds
// to another float16 for some byte do not, and still give the division's bits.
TEST_P(NormalizeReciprocal, HalfOutputsTakeTheBareProductWhereItRoundsAlike) {
  for (std::size_t c = 0; c < 3; ++c) {
    const float m = kImageNetMeans[c];
    const float s = kImageNetStddevs[c];
    EXPECT_TRUE(half_product_rounds_alike(m, s)) << c;
    EXPECT_EQ(cpu::normalize_half_product_exact(m, s), has_form()) << c;
  }
  std::mt19937 rng(16);
  std::uniform_real_distribution<float> stddev_dist(0.5f, 200.0f);
  std::vector<float> means = {127.25f};
  std::vector<float> stddevs;
  for (int trial = 0; trial < 100000 && stddevs.empty(); ++trial) {
    const float s = stddev_dist(rng);
    if (!half_product_rounds_alike(means[0], s)) stddevs.push_back(s);
  }
  ASSERT_EQ(stddevs.size(), 1u) << "no stddev whose product rounds apart";
  EXPECT_FALSE(cpu::normalize_half_product_exact(means[0], stddevs[0])) << stddevs[0];
  const TensorBuffer x = every_byte(1);
  EXPECT_EQ(first_difference(run(x, means, stddevs, true, cpu::ProcessDivideUse::kAuto),
                             reference(x, means, stddevs, true)),
            -1)
      << stddevs[0];
}

// The check a Processor keeps from its first run decides its later runs as a fresh check
// would: with failing parameters every default run divides (also after an unchecked run built
// what it keeps, and the other way round), and an unchecked run still takes the wrong form.
TEST_P(NormalizeReciprocal, AKeptFailedCheckStillKeepsTheDivision) {
  const std::vector<float> means = {0.5f, 116.28f, 103.53f};
  const std::vector<float> stddevs = {1e-38f, 57.12f, 57.375f};
  const TensorBuffer x = every_byte(3);
  for (bool half : {false, true}) {
    std::vector<ProcessStep> steps = {normalize_op(means, stddevs)};
    if (half) steps.push_back(cast_op(DataType::kFloat16));
    const std::vector<std::uint32_t> expected = reference(x, means, stddevs, half);
    using Use = cpu::ProcessDivideUse;
    for (const std::vector<Use>& order :
         {std::vector<Use>{Use::kAuto, Use::kUnchecked, Use::kAuto, Use::kAuto},
          std::vector<Use>{Use::kUnchecked, Use::kAuto, Use::kUnchecked, Use::kAuto}}) {
      const Processor p(steps);
      for (std::size_t r = 0; r < order.size(); ++r) {
        const std::int64_t difference = first_difference(run_on(p, x, order[r]), expected);
        if (order[r] == Use::kUnchecked && has_form()) {
          EXPECT_NE(difference, -1) << half << " run " << r;
        } else {
          EXPECT_EQ(difference, -1) << half << " run " << r;
        }
      }
    }
  }
}

// ImageNet's parameters pass: a Processor's later runs take the kept form (the unchecked one's
// bits, which are the division's) and a short run after a long one too.
TEST_P(NormalizeReciprocal, AKeptPassedCheckServesLaterAndShorterRuns) {
  const TensorBuffer x = every_byte(3);
  TensorBuffer short_x = TensorBuffer::create_fixed_size({2, 3}, DataType::kUInt8);
  const std::uint8_t bytes[6] = {0, 1, 127, 128, 254, 255};
  std::memcpy(short_x.mutable_host_bytes(), bytes, sizeof bytes);
  for (bool half : {false, true}) {
    std::vector<ProcessStep> steps = {normalize_op(kImageNetMeans, kImageNetStddevs)};
    if (half) steps.push_back(cast_op(DataType::kFloat16));
    const Processor p(steps);
    const std::vector<std::uint32_t> expected =
        reference(x, kImageNetMeans, kImageNetStddevs, half);
    for (int r = 0; r < 3; ++r) {
      EXPECT_EQ(first_difference(run_on(p, x, cpu::ProcessDivideUse::kAuto), expected), -1)
          << half << " run " << r;
    }
    EXPECT_EQ(first_difference(run_on(p, short_x, cpu::ProcessDivideUse::kAuto),
                               reference(short_x, kImageNetMeans, kImageNetStddevs, half)),
              -1)
        << half;
  }
}

// A run shorter than the check (256 x channels) divides: the same bits either way.
TEST_P(NormalizeReciprocal, ShortRunsEqualTheDivision) {
  TensorBuffer x = TensorBuffer::create_fixed_size({2, 3}, DataType::kUInt8);
  const std::uint8_t bytes[6] = {0, 1, 127, 128, 254, 255};
  std::memcpy(x.mutable_host_bytes(), bytes, sizeof bytes);
  for (bool half : {false, true}) {
    EXPECT_EQ(first_difference(
                  run(x, kImageNetMeans, kImageNetStddevs, half, cpu::ProcessDivideUse::kAuto),
                  reference(x, kImageNetMeans, kImageNetStddevs, half)),
              -1);
  }
}

}  // namespace
}  // namespace tensorbuf
