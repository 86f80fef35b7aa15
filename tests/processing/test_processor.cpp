// The fused Processor (spec/processing.md 4): bit-equal to the single ops applied one by one
// (every source dtype, every chain of up to three steps drawn from normalize (scalar and per
// channel), quantize, dequantize and a cast to every dtype), exact errors, run_into's checks,
// identities, and NumPy's float32 arithmetic (tests/data/processing/vectors.txt).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "core/buffer_access.hpp"
#include "core/in_place.hpp"
#include "cpu/cpu_features.hpp"
#include "cpu/processing_tuning.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

const std::vector<DataType> kTypes = {DataType::kBool,    DataType::kUInt8,    DataType::kInt8,
                                      DataType::kInt16,   DataType::kInt32,    DataType::kInt64,
                                      DataType::kFloat16, DataType::kBFloat16, DataType::kFloat32,
                                      DataType::kFloat64};

int random_cases() {
  if (const char* env = std::getenv("TENSORBUF_RANDOM_CASES")) return std::max(1, std::atoi(env));
  return 150;
}

TensorBuffer floats_buffer(const Shape& shape, const std::vector<float>& values) {
  TensorBuffer b = TensorBuffer::create_fixed_size(shape, DataType::kFloat32);
  std::copy(values.begin(), values.end(), b.mutable_host<float>());
  return b;
}

TensorBuffer bytes_buffer(const Shape& shape, DataType type, const std::vector<std::uint8_t>& v) {
  TensorBuffer b = TensorBuffer::create_fixed_size(shape, type);
  std::copy(v.begin(), v.end(), b.mutable_host<std::uint8_t>());
  return b;
}

std::vector<std::uint8_t> bytes_of(const TensorBuffer& b) {
  const auto* p = static_cast<const std::uint8_t*>(b.host_bytes());
  return {p, p + b.size_bytes()};
}

std::vector<float> floats(const TensorBuffer& y) {
  EXPECT_EQ(y.data_type(), DataType::kFloat32);
  const float* p = y.host<float>();
  return {p, p + y.shape().num_elements()};
}

// Random contents of every kind a dtype holds: for floats NaN, +-inf, -0, huge and tiny values
// (so casts saturate), for bool any byte (every nonzero byte reads as true).
TensorBuffer random_input(std::mt19937& rng, const Shape& shape, DataType type, bool dynamic) {
  const std::int64_t n = shape.num_elements();
  if (type == DataType::kBool) {
    std::vector<std::uint8_t> v(static_cast<std::size_t>(n));
    for (auto& b : v) b = rng() % 3 == 0 ? static_cast<std::uint8_t>(rng()) : rng() % 2;
    TensorBuffer b = bytes_buffer(shape, type, v);
    if (!dynamic) return b;
    TensorBuffer d = TensorBuffer::create_dynamic(type);
    d.load_buffer(std::as_bytes(std::span(v)), shape);
    d.mutable_host_bytes();  // a write copies the loaded bytes (load_buffer references them)
    return d;
  }
  TensorBuffer f64 = TensorBuffer::create_fixed_size(shape, DataType::kFloat64);
  double* p = f64.mutable_host<double>();
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (std::int64_t i = 0; i < n; ++i) {
    const unsigned kind = rng() % 16;
    double v = 0;
    if (kind == 0) {
      v = std::nan("");
    } else if (kind == 1) {
      v = rng() % 2 ? kInf : -kInf;
    } else if (kind == 2) {
      v = -0.0;
    } else if (kind == 3) {
      v = (unit(rng) - 0.5) * 1e12;  // beyond every integer dtype but int64, and float16
    } else if (kind == 4) {
      v = (unit(rng) - 0.5) * 1e-6;  // float16 subnormals and zeros
    } else if (kind < 9) {
      v = std::floor((unit(rng) - 0.3) * 400.0);  // integers around uint8's and int8's range
    } else {
      v = (unit(rng) - 0.3) * 600.0;
    }
    p[i] = v;
  }
  TensorBuffer x = TensorBuffer::create_from(f64, type);
  if (!dynamic) return x;
  TensorBuffer d = TensorBuffer::create_dynamic(type);
  d.load_buffer(std::span(static_cast<const std::byte*>(x.host_bytes()), x.size_bytes()), shape);
  d.mutable_host_bytes();  // a write copies the loaded bytes (load_buffer references them)
  return d;
}

// One step kind of the enumeration: 0 scalar normalize, 1 per-channel normalize, 2 quantize,
// 3 dequantize, 4 + k: cast to kTypes[k].
constexpr int kStepKinds = 4 + 10;

// A step of kind `kind` with random parameters, and the same step as single ops.
struct RandomStep {
  int kind = 0;
  float a = 0, b = 1;                 // scalar mean/stddev, zero point/scale
  std::vector<float> means, stddevs;  // per channel
  DataType type = DataType::kFloat32;

  ProcessStep step() const {
    switch (kind) {
      case 0:
        return normalize_op(a, b);
      case 1:
        return normalize_op(means, stddevs);
      case 2:
        return quantize_op(a, b);
      case 3:
        return dequantize_op(a, b);
      default:
        return cast_op(type);
    }
  }
  TensorBuffer apply(const TensorBuffer& x) const {
    switch (kind) {
      case 0:
        return normalize(x, a, b);
      case 1:
        return normalize(x, means, stddevs);
      case 2:
        return quantize(x, a, b);
      case 3:
        return dequantize(x, a, b);
      default:
        return cast(x, type);
    }
  }
};

RandomStep random_step(std::mt19937& rng, int kind, int channels) {
  RandomStep s;
  s.kind = kind;
  std::uniform_real_distribution<float> mean_d(-300.0f, 300.0f);
  std::uniform_real_distribution<float> std_d(0.01f, 100.0f);
  const unsigned special = rng() % 8;  // an identity or a rule's edge now and then
  switch (kind) {
    case 0:
      s.a = special == 0 ? 0.0f : mean_d(rng);
      s.b = special == 0   ? (rng() % 2 ? 0.0f : kInf)
            : special == 1 ? kInf
                           : (rng() % 2 ? 1.0f : -1.0f) * std_d(rng);
      break;
    case 1:
      for (int c = 0; c < channels; ++c) {
        s.means.push_back(special == 0 ? 0.0f : mean_d(rng));
        s.stddevs.push_back(special == 0 ? 1.0f : (rng() % 2 ? 1.0f : -1.0f) * std_d(rng));
      }
      break;
    case 2:
    case 3:
      s.a = special == 0 ? 0.0f : std::floor(mean_d(rng) / 2);
      s.b = special == 0 ? 0.0f : std::uniform_real_distribution<float>(1e-3f, 2.0f)(rng);
      if (kind == 2 && special == 1) s.b = 0.0f;  // quantize's identity
      break;
    default:
      s.type = kTypes[static_cast<std::size_t>(kind - 4)];
  }
  return s;
}

void expect_same(const TensorBuffer& fused, const TensorBuffer& unfused, const std::string& what) {
  ASSERT_EQ(fused.data_type(), unfused.data_type()) << what;
  ASSERT_EQ(fused.shape(), unfused.shape()) << what;
  ASSERT_EQ(fused.is_dynamic(), unfused.is_dynamic()) << what;
  const std::vector<std::uint8_t> a = bytes_of(fused);
  const std::vector<std::uint8_t> b = bytes_of(unfused);
  const std::size_t width = fused.type_size();
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i], b[i]) << what << ": element " << i / width << " differs";
  }
}

std::string describe(DataType type, const std::vector<RandomStep>& steps) {
  std::ostringstream out;
  out << to_string(type);
  for (const RandomStep& s : steps) {
    const char* names[] = {"normalize", "normalize_c", "quantize", "dequantize"};
    out << " -> " << (s.kind < 4 ? names[s.kind] : "cast ")
        << (s.kind < 4 ? "" : std::string(to_string(s.type)));
    if (s.kind == 0 || s.kind == 2 || s.kind == 3) out << "(" << s.a << ", " << s.b << ")";
  }
  return out.str();
}

// Every source dtype x every chain of 1-3 step kinds (14^1 + 14^2 + 14^3 chains), random
// parameters and contents; the sizes cross blocks and channel phases. With the CPU's SIMD paths
// (AVX-512 where it has them) and with the portable loops alone.
class ProcessorFused : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { cpu::set_simd_enabled(GetParam()); }
  void TearDown() override { cpu::set_simd_enabled(true); }
};

INSTANTIATE_TEST_SUITE_P(Simd, ProcessorFused, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& param) {
                           return param.param ? "Simd" : "Portable";
                         });

TEST_P(ProcessorFused, EveryChainUpToThreeStepsEqualsTheStepsOneByOne) {
  std::mt19937 rng(4242);
  std::int64_t chains = 0;
  for (int length = 1; length <= 3; ++length) {
    int count = 1;
    for (int i = 0; i < length; ++i) count *= kStepKinds;
    for (int code = 0; code < count; ++code) {
      const DataType type = kTypes[static_cast<std::size_t>(chains % 10)];
      ++chains;
      const int channels = 1 + static_cast<int>(rng() % 5);
      const std::int64_t rows = 1 + static_cast<std::int64_t>(rng() % 700);
      std::vector<RandomStep> steps;
      for (int i = 0, c = code; i < length; ++i, c /= kStepKinds) {
        steps.push_back(random_step(rng, c % kStepKinds, channels));
      }
      const bool dynamic = rng() % 8 == 0;
      const TensorBuffer x = random_input(rng, {rows, channels}, type, dynamic);
      const std::vector<std::uint8_t> before = bytes_of(x);
      std::vector<ProcessStep> chain;
      for (const RandomStep& s : steps) chain.push_back(s.step());
      const Processor p(chain);
      const TensorBuffer fused = p.run(x);
      TensorBuffer unfused = core::BufferAccess::share(x);
      for (const RandomStep& s : steps) unfused = s.apply(unfused);
      const std::string what = describe(type, steps);
      ASSERT_NO_FATAL_FAILURE(expect_same(fused, unfused, what));
      EXPECT_EQ(p.output_type(type), unfused.data_type()) << what;
      // All identities: x itself, as the single ops give it.
      EXPECT_EQ(core::shares_memory(fused, x), core::shares_memory(unfused, x)) << what;
      ASSERT_EQ(bytes_of(x), before) << what << ": the input changed";
    }
  }
  EXPECT_EQ(chains, 14 + 14 * 14 + 14 * 14 * 14);
}

// Large inputs: several threads' chunks, outputs streamed past the caches, every dtype.
TEST_P(ProcessorFused, LargeInputsEqualTheStepsOneByOne) {
  std::mt19937 rng(99);
  const int cases = std::min(random_cases(), 10);
  for (int i = 0; i < cases; ++i) {
    const DataType type = kTypes[static_cast<std::size_t>(i) % kTypes.size()];
    const int channels = 3;
    // The first: rows x 3 to float32, an output just over the size streamed past the caches
    // (cpu::process_stream_output_bytes); the others 20k-70k rows (several threads' chunks),
    // kept small for the sanitizer builds.
    const bool streamed = i == 0;
    const std::int64_t streamed_rows = cpu::process_stream_output_bytes() / (channels * 4) + 1;
    const std::int64_t rows = streamed ? streamed_rows + static_cast<std::int64_t>(rng() % 1000)
                                       : 20000 + static_cast<std::int64_t>(rng() % 50000);
    const int last = streamed ? 8 : static_cast<int>(rng() % 10);
    std::vector<RandomStep> steps = {random_step(rng, 1, channels),
                                     random_step(rng, 4 + last, channels)};
    if (i % 2 == 1) steps.insert(steps.begin(), random_step(rng, 4 + 8, channels));  // float32
    const TensorBuffer x = random_input(rng, {rows, channels}, type, false);
    std::vector<ProcessStep> chain;
    for (const RandomStep& s : steps) chain.push_back(s.step());
    const TensorBuffer fused = Processor(chain).run(x);
    TensorBuffer unfused = core::BufferAccess::share(x);
    for (const RandomStep& s : steps) unfused = s.apply(unfused);
    ASSERT_NO_FATAL_FAILURE(expect_same(fused, unfused, describe(type, steps)));
  }
}

// More channels than a block (1024): the per-channel means wrap inside a block.
TEST_P(ProcessorFused, ChannelsLongerThanABlock) {
  std::mt19937 rng(5);
  for (const int channels : {1023, 1024, 1025, 1500, 3000}) {
    const RandomStep norm = random_step(rng, 1, channels);
    const RandomStep to_half = random_step(rng, 4 + 6, channels);
    for (DataType type : {DataType::kUInt8, DataType::kInt16, DataType::kFloat32}) {
      const TensorBuffer x = random_input(rng, {7, channels}, type, false);
      const TensorBuffer fused = Processor({norm.step(), to_half.step()}).run(x);
      ASSERT_NO_FATAL_FAILURE(
          expect_same(fused, to_half.apply(norm.apply(x)), describe(type, {norm, to_half})));
    }
  }
}

// --- 8-bit inputs: the chain as a table of 256 x C outputs (src/cpu/processing.cpp) ---

// The table path (forced) against the direct path (forced off), with the SIMD paths (AVX-512
// gathers where the CPU has them) and the portable loops.
// A uint8, int8 or bool buffer holding `bytes`.
TensorBuffer byte_buffer(const Shape& shape, DataType type,
                         const std::vector<std::uint8_t>& bytes) {
  TensorBuffer b = TensorBuffer::create_fixed_size(shape, type);
  std::memcpy(b.mutable_host_bytes(), bytes.data(), bytes.size());
  return b;
}

class ProcessorTable : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { cpu::set_simd_enabled(GetParam()); }
  void TearDown() override {
    cpu::set_simd_enabled(true);
    cpu::set_process_table_use(cpu::ProcessTableUse::kAuto);
  }
  static TensorBuffer run_with(const Processor& p, const TensorBuffer& x,
                               cpu::ProcessTableUse use) {
    cpu::set_process_table_use(use);
    TensorBuffer y = p.run(x);
    cpu::set_process_table_use(cpu::ProcessTableUse::kAuto);
    return y;
  }
};

INSTANTIATE_TEST_SUITE_P(Simd, ProcessorTable, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& param) {
                           return param.param ? "Simd" : "Portable";
                         });

// Every byte at every channel (rows of C, row r channel c holding (r + 37 c) % 256, more than
// 256 rows), every channel count 1..64, every output dtype (a last cast), a random chain of
// 0-2 steps before it: bit for bit the direct path's bytes, at offsets that start the lookup's
// vectors at every channel.
TEST_P(ProcessorTable, EveryByteAtEveryChannelEqualsTheDirectPath) {
  std::mt19937 rng(808);
  std::int64_t runs = 0;
  for (DataType in : {DataType::kUInt8, DataType::kInt8, DataType::kBool}) {
    for (int channels = 1; channels <= 64; ++channels) {
      for (std::size_t out = 0; out < kTypes.size(); ++out) {
        const std::int64_t rows = 257 + static_cast<std::int64_t>(rng() % 40);
        std::vector<std::uint8_t> bytes(static_cast<std::size_t>(rows * channels));
        for (std::int64_t r = 0; r < rows; ++r) {
          for (int c = 0; c < channels; ++c) {
            bytes[static_cast<std::size_t>(r * channels + c)] =
                static_cast<std::uint8_t>((r + 37 * c) % 256);
          }
        }
        const TensorBuffer x = byte_buffer({rows, channels}, in, bytes);
        std::vector<RandomStep> steps;
        const int length = static_cast<int>(rng() % 3);
        for (int i = 0; i < length; ++i) {
          steps.push_back(random_step(rng, static_cast<int>(rng() % kStepKinds), channels));
        }
        // A per-channel normalize first half the time, so that the table has C rows.
        if (rng() % 2 == 0) steps.insert(steps.begin(), random_step(rng, 1, channels));
        steps.push_back(random_step(rng, 4 + static_cast<int>(out), channels));
        std::vector<ProcessStep> chain;
        for (const RandomStep& s : steps) chain.push_back(s.step());
        const Processor p(chain);
        const std::string what =
            describe(in, steps) + ", " + std::to_string(channels) + " channels";
        const TensorBuffer direct = run_with(p, x, cpu::ProcessTableUse::kNever);
        ASSERT_NO_FATAL_FAILURE(
            expect_same(run_with(p, x, cpu::ProcessTableUse::kAlways), direct, what));
        // The same elements from a later start: the first lookup starts at another channel.
        const std::int64_t skip = 1 + static_cast<std::int64_t>(rng() % 17);
        const std::vector<std::uint8_t> tail(bytes.begin() + skip * channels, bytes.end());
        const TensorBuffer x2 = byte_buffer({rows - skip, channels}, in, tail);
        ASSERT_NO_FATAL_FAILURE(expect_same(run_with(p, x2, cpu::ProcessTableUse::kAlways),
                                            run_with(p, x2, cpu::ProcessTableUse::kNever),
                                            what + ", from row " + std::to_string(skip)));
        ++runs;
      }
    }
  }
  EXPECT_EQ(runs, 3 * 64 * 10);
}

// Random chains of 1-3 steps on random 8-bit inputs of random lengths (blocks, threads'
// chunks, vector tails), and the chosen path (kAuto) too: all bit-equal to the direct path.
TEST_P(ProcessorTable, RandomChainsEqualTheDirectPath) {
  std::mt19937 rng(909);
  const int cases = std::max(200, random_cases());
  for (int i = 0; i < cases; ++i) {
    const DataType in = i % 3 == 0   ? DataType::kUInt8
                        : i % 3 == 1 ? DataType::kInt8
                                     : DataType::kBool;
    const int channels = 1 + static_cast<int>(rng() % 8);
    const std::int64_t rows = 1 + static_cast<std::int64_t>(rng() % (i % 10 == 0 ? 40000 : 3000));
    std::vector<RandomStep> steps;
    const int length = 1 + static_cast<int>(rng() % 3);
    for (int s = 0; s < length; ++s) {
      steps.push_back(random_step(rng, static_cast<int>(rng() % kStepKinds), channels));
    }
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(rows * channels));
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
    const TensorBuffer x = byte_buffer({rows, channels}, in, bytes);
    std::vector<ProcessStep> chain;
    for (const RandomStep& s : steps) chain.push_back(s.step());
    const Processor p(chain);
    const std::string what = describe(in, steps);
    const TensorBuffer direct = run_with(p, x, cpu::ProcessTableUse::kNever);
    ASSERT_NO_FATAL_FAILURE(
        expect_same(run_with(p, x, cpu::ProcessTableUse::kAlways), direct, what));
    ASSERT_NO_FATAL_FAILURE(expect_same(run_with(p, x, cpu::ProcessTableUse::kAuto), direct, what));
  }
}

// The single op cast of an 8-bit input runs on the Processor's backend: by the table or not,
// every byte converts as tensor_buffer.md's conversion (create_from) converts it.
TEST_P(ProcessorTable, CastOfAnEightBitInputIsTheConversion) {
  std::vector<std::uint8_t> bytes(256 * 21);
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<std::uint8_t>(i * 7 + i / 256);
  for (DataType in : {DataType::kUInt8, DataType::kInt8, DataType::kBool}) {
    const TensorBuffer x = byte_buffer({256 * 21}, in, bytes);
    for (DataType out : kTypes) {
      const TensorBuffer expected = TensorBuffer::create_from(x, out);
      for (cpu::ProcessTableUse use : {cpu::ProcessTableUse::kAlways, cpu::ProcessTableUse::kNever,
                                       cpu::ProcessTableUse::kAuto}) {
        cpu::set_process_table_use(use);
        const TensorBuffer y = cast(x, out);
        cpu::set_process_table_use(cpu::ProcessTableUse::kAuto);
        ASSERT_NO_FATAL_FAILURE(expect_same(
            y, expected, std::string(to_string(in)) + " -> " + std::string(to_string(out))));
      }
    }
  }
}

// --- the NumPy float32 reference (tests/data/processing/vectors.txt) ---

struct Vector {
  std::string name;
  std::vector<std::int64_t> shape;
  std::vector<std::uint8_t> input;
  std::vector<float> mean, stddev, expected32;
  std::vector<std::uint16_t> expected16;
};

std::vector<Vector> read_vectors() {
  std::ifstream file(std::string(TENSORBUF_TEST_DATA_DIR) + "/processing/vectors.txt");
  EXPECT_TRUE(file.good()) << "tests/data/processing/vectors.txt missing";
  std::vector<Vector> out;
  std::string line;
  auto bits_to_float = [](const std::string& hex) {
    const auto u = static_cast<std::uint32_t>(std::stoul(hex, nullptr, 16));
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
  };
  while (std::getline(file, line)) {
    std::istringstream in(line);
    std::string key;
    in >> key;
    std::string word;
    if (key == "case") {
      out.emplace_back();
      in >> out.back().name;
    } else if (key == "shape") {
      while (in >> word) out.back().shape.push_back(std::stoll(word));
    } else if (key == "input") {
      while (in >> word) out.back().input.push_back(static_cast<std::uint8_t>(std::stoi(word)));
    } else if (key == "mean" || key == "std" || key == "float32") {
      auto& target = key == "mean"  ? out.back().mean
                     : key == "std" ? out.back().stddev
                                    : out.back().expected32;
      while (in >> word) target.push_back(bits_to_float(word));
    } else if (key == "float16") {
      while (in >> word) {
        out.back().expected16.push_back(static_cast<std::uint16_t>(std::stoul(word, nullptr, 16)));
      }
    }
  }
  return out;
}

TEST(ProcessorNumPy, Uint8PerChannelNormalizeToFloat32AndFloat16) {
  const std::vector<Vector> vectors = read_vectors();
  ASSERT_EQ(vectors.size(), 4u);
  for (const Vector& v : vectors) {
    const TensorBuffer x = bytes_buffer(Shape(v.shape), DataType::kUInt8, v.input);
    const Processor to_float({normalize_op(v.mean, v.stddev)});
    const std::vector<float> got = floats(to_float.run(x));
    ASSERT_EQ(got.size(), v.expected32.size()) << v.name;
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(std::bit_cast<std::uint32_t>(got[i]), std::bit_cast<std::uint32_t>(v.expected32[i]))
          << v.name << " element " << i;
    }
    const Processor to_half({normalize_op(v.mean, v.stddev), cast_op(DataType::kFloat16)});
    const TensorBuffer half = to_half.run(x);
    ASSERT_EQ(half.data_type(), DataType::kFloat16);
    const auto* h = static_cast<const std::uint16_t*>(half.host_bytes());
    for (std::size_t i = 0; i < v.expected16.size(); ++i) {
      ASSERT_EQ(h[i], v.expected16[i]) << v.name << " element " << i;
    }
  }
}

// --- steps: the single ops' constructor rules and messages ---

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InvalidArgumentError& e) {
    return e.what();
  }
  return "(no InvalidArgumentError)";
}

TEST(ProcessStep, ErrorsAreTheSingleOpsErrors) {
  EXPECT_EQ(error_of([] { normalize_op(1.0f, 0.0f); }), "normalize: stddev cannot be zero");
  EXPECT_EQ(error_of([] {
              normalize_op({1.0f, 2.0f}, std::vector<float>{1.0f});
            }),
            "normalize: per-channel normalization requires as many means as stddevs (2 means, 1 "
            "stddevs)");
  EXPECT_EQ(error_of([] { normalize_op(std::vector<float>{}, std::vector<float>{}); }),
            "normalize: means and stddevs are empty");
  EXPECT_EQ(error_of([] {
              normalize_op({1.0f, 2.0f}, {1.0f, 0.0f});
            }),
            "normalize: stddev cannot be zero (channel 1)");
  // No 0/inf bypass in the array form.
  EXPECT_EQ(error_of([] { normalize_op(std::vector<float>{0.0f}, std::vector<float>{0.0f}); }),
            "normalize: stddev cannot be zero (channel 0)");
  // quantize: mean -inf * 0 = NaN with scale 0; dequantize: 1 / inf = 0 with zero point 1.
  EXPECT_EQ(error_of([] { quantize_op(kInf, 0.0f); }), "normalize: stddev cannot be zero");
  EXPECT_EQ(error_of([] { dequantize_op(1.0f, kInf); }), "normalize: stddev cannot be zero");
  // The single ops say the same.
  const TensorBuffer x = TensorBuffer::create_fixed_size({1}, DataType::kFloat32);
  EXPECT_EQ(error_of([&] { normalize(x, 1.0f, 0.0f); }), "normalize: stddev cannot be zero");
  EXPECT_EQ(error_of([&] { quantize(x, kInf, 0.0f); }), "normalize: stddev cannot be zero");
  EXPECT_EQ(error_of([] { cast_op(static_cast<DataType>(42)); }), "cast: 42 is not a DataType");
}

TEST(ProcessStep, ValuesAsApplied) {
  const ProcessStep q = quantize_op(3.0f, 0.5f);
  EXPECT_EQ(q.kind(), ProcessStep::Kind::kNormalize);
  EXPECT_EQ(q.name(), "quantize");
  EXPECT_EQ(q.means(), std::vector<float>{-1.5f});
  EXPECT_EQ(q.stddevs(), std::vector<float>{0.5f});
  const ProcessStep d = dequantize_op(3.0f, 0.3f);
  EXPECT_EQ(d.stddevs(), std::vector<float>{1.0f / 0.3f});
  EXPECT_TRUE(normalize_op(0.0f, kInf).is_identity());
  EXPECT_TRUE(normalize_op({0.0f, -0.0f}, {1.0f, 1.0f}).is_identity());
  EXPECT_TRUE(quantize_op(5.0f, 0.0f).is_identity());
  EXPECT_TRUE(dequantize_op(0.0f, 0.0f).is_identity());
  EXPECT_FALSE(normalize_op(kNaN, 1.0f).is_identity());
  const ProcessStep c = cast_op(DataType::kInt8);
  EXPECT_EQ(c.kind(), ProcessStep::Kind::kCast);
  EXPECT_EQ(c.cast_type(), DataType::kInt8);
  EXPECT_FALSE(c.is_identity());
}

// --- Processor construction and run errors ---

TEST(Processor, DifferentChannelCountsAreRefusedAtConstruction) {
  EXPECT_EQ(error_of([] {
              Processor({normalize_op({1, 2, 3}, {1, 1, 1}), cast_op(DataType::kUInt8),
                         quantize_op(1, 2), normalize_op({1, 2}, {2, 2})});
            }),
            "Processor: step 3 (normalize) has 2 channels and step 0 (normalize) 3: no last axis "
            "fits both");
  // One channel fits every last axis; an identity step is never applied.
  EXPECT_NO_THROW(Processor({normalize_op({1, 2, 3}, {1, 1, 1}),
                             normalize_op(std::vector<float>{5.0f}, std::vector<float>{2.0f}),
                             normalize_op({0, 0}, {1, 1})}));
}

TEST(Processor, ChannelMismatchIsTheFirstFailingStepsError) {
  const TensorBuffer x = floats_buffer({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  const Processor p({cast_op(DataType::kInt8), normalize_op({1, 2, 3}, {1, 1, 1})});
  EXPECT_EQ(error_of([&] { p.run(x); }),
            "Processor step 1 (normalize): 3 means (stddevs) for a last axis of shape [2,4]: the "
            "number of channels must equal the size of the last axis");
  // The single op says the same after its own name.
  EXPECT_EQ(error_of([&] {
              normalize(x, {1, 2, 3}, {1, 1, 1});
            }),
            "normalize: 3 means (stddevs) for a last axis of shape [2,4]: the number of channels "
            "must equal the size of the last axis");
  // A scalar: rank 0 has no last axis.
  const TensorBuffer scalar = floats_buffer({}, {1});
  EXPECT_EQ(error_of([&] {
              Processor({normalize_op({1, 2}, {1, 1})}).run(scalar);
            }),
            "Processor step 0 (normalize): 2 means (stddevs) for a last axis of shape []: the "
            "number of channels must equal the size of the last axis");
  // An identity step is dropped before any check, as the single op's identity.
  EXPECT_NO_THROW(Processor({normalize_op({0, 0, 0}, {1, 1, 1})}).run(x));
}

// CUDA runs the chain (tests/processing/test_cuda_driver.cpp); without a usable device the run
// is UnavailableError and run_into leaves out unchanged.
TEST(Processor, CudaWithoutADeviceIsUnavailable) {
  if (cuda_available()) GTEST_SKIP() << "a CUDA device is available";
  const TensorBuffer x = floats_buffer({3}, {1, 2, 3});
  const Processor p({normalize_op(1.0f, 2.0f)});
  ProcessOptions options;
  options.device = Device::cuda(0);
  TensorBuffer out = TensorBuffer::create_fixed_size({3}, DataType::kFloat32);
  EXPECT_THROW(p.run(x, options), UnavailableError);
  EXPECT_THROW(p.run_into(x, out, options), UnavailableError);
  EXPECT_EQ(floats(out), (std::vector<float>{0, 0, 0}));
}

TEST(Processor, CopiesShareTheChainAndAMovedFromOneRaises) {
  const TensorBuffer x = floats_buffer({2}, {3.0f, 5.0f});
  Processor p({normalize_op(1.0f, 2.0f)});
  const Processor copy = p;  // NOLINT(performance-unnecessary-copy-initialization)
  const Processor moved = std::move(p);
  EXPECT_EQ(floats(copy.run(x)), (std::vector<float>{1.0f, 2.0f}));
  EXPECT_EQ(floats(moved.run(x)), (std::vector<float>{1.0f, 2.0f}));
  // NOLINTNEXTLINE(bugprone-use-after-move): the point of the test
  EXPECT_EQ(error_of([&] { p.run(x); }), "Processor: used after it was moved from");
}

// --- identities and empty chains ---

TEST(Processor, AllIdentityChainsGiveTheInputItself) {
  const TensorBuffer x = bytes_buffer({2, 3}, DataType::kUInt8, {1, 2, 3, 4, 5, 6});
  for (const Processor& p :
       {Processor({}), Processor({normalize_op(0.0f, 0.0f), cast_op(DataType::kUInt8)}),
        Processor({quantize_op(7.0f, 0.0f), dequantize_op(0.0f, 0.0f),
                   normalize_op({0, 0, 0}, {1, 1, 1})})}) {
    const TensorBuffer y = p.run(x);
    EXPECT_EQ(y.data_type(), DataType::kUInt8);
    EXPECT_TRUE(core::shares_memory(y, x));
    EXPECT_EQ(p.output_type(DataType::kUInt8), DataType::kUInt8);
    TensorBuffer out = TensorBuffer::create_fixed_size({2, 3}, DataType::kUInt8);
    p.run_into(x, out);
    EXPECT_FALSE(core::shares_memory(out, x));
    EXPECT_EQ(bytes_of(out), bytes_of(x));
  }
}

TEST(Processor, IdentityStepsDropOutOfALongerChain) {
  const TensorBuffer x = bytes_buffer({2, 2}, DataType::kUInt8, {0, 100, 200, 255});
  const Processor p({normalize_op(0.0f, 1.0f), cast_op(DataType::kUInt8),
                     normalize_op(127.5f, 127.5f), cast_op(DataType::kFloat32),
                     quantize_op(3.0f, 0.0f)});
  const TensorBuffer y = p.run(x);
  EXPECT_EQ(y.data_type(), DataType::kFloat32);
  EXPECT_EQ(floats(y), floats(normalize(x, 127.5f, 127.5f)));
}

TEST(Processor, CastToTheInputsOwnDtypeDependsOnTheInput) {
  const Processor p({cast_op(DataType::kFloat32)});
  const TensorBuffer f = floats_buffer({2}, {1.5f, -2.0f});
  EXPECT_TRUE(core::shares_memory(p.run(f), f));
  const TensorBuffer u = bytes_buffer({2}, DataType::kUInt8, {3, 4});
  const TensorBuffer y = p.run(u);
  EXPECT_FALSE(core::shares_memory(y, u));
  EXPECT_EQ(floats(y), (std::vector<float>{3.0f, 4.0f}));
}

TEST(Processor, EmptyAndDynamicInputs) {
  const Processor p({normalize_op(1.0f, 2.0f), cast_op(DataType::kFloat16)});
  const TensorBuffer empty = TensorBuffer::create_fixed_size({0, 3}, DataType::kUInt8);
  const TensorBuffer y = p.run(empty);
  EXPECT_EQ(y.shape(), Shape({0, 3}));
  EXPECT_EQ(y.data_type(), DataType::kFloat16);
  EXPECT_FALSE(y.is_dynamic());
  TensorBuffer dynamic = TensorBuffer::create_dynamic(DataType::kFloat32);
  dynamic.load_array(std::vector<float>{3.0f, 5.0f}, {2});
  const TensorBuffer z = p.run(dynamic);
  EXPECT_TRUE(z.is_dynamic());
  EXPECT_EQ(z.data_type(), DataType::kFloat16);
  EXPECT_EQ(static_cast<float>(z.host<float16>()[1]), 2.0f);
}

// --- run_into ---

TEST(ProcessorRunInto, WritesTheChainsResult) {
  const TensorBuffer x = bytes_buffer({2, 3}, DataType::kUInt8, {10, 20, 30, 40, 50, 60});
  const Processor p({normalize_op({1, 2, 3}, {2, 4, 8}), cast_op(DataType::kInt16)});
  TensorBuffer out = TensorBuffer::create_fixed_size({2, 3}, DataType::kInt16);
  p.run_into(x, out);
  const std::int16_t* o = out.host<std::int16_t>();
  EXPECT_EQ(std::vector<std::int16_t>(o, o + 6), (std::vector<std::int16_t>{4, 4, 3, 19, 12, 7}));
  // A dynamic out of the same shape is fine; its flag stays.
  TensorBuffer dyn = TensorBuffer::create_dynamic(DataType::kInt16);
  dyn.load_array(std::vector<std::int32_t>{0, 0, 0, 0, 0, 0}, {2, 3});
  p.run_into(x, dyn);
  EXPECT_TRUE(dyn.is_dynamic());
  EXPECT_EQ(bytes_of(dyn), bytes_of(out));
}

TEST(ProcessorRunInto, WrongDtypeOrShapeLeavesOutUntouched) {
  const TensorBuffer x = bytes_buffer({2, 3}, DataType::kUInt8, {10, 20, 30, 40, 50, 60});
  const Processor p({normalize_op({1, 2, 3}, {2, 4, 8})});
  TensorBuffer half = TensorBuffer::create_fixed_size({2, 3}, DataType::kFloat16);
  half.mutable_host<float16>()[0] = float16(7.0f);
  const std::vector<std::uint8_t> half_before = bytes_of(half);
  EXPECT_EQ(error_of([&] { p.run_into(x, half); }),
            "Processor::run_into: out has dtype float16; the chain gives float32 for a uint8 "
            "input");
  EXPECT_EQ(bytes_of(half), half_before);
  TensorBuffer wrong = floats_buffer({3, 2}, {9, 9, 9, 9, 9, 9});
  EXPECT_EQ(error_of([&] { p.run_into(x, wrong); }),
            "Processor::run_into: out has shape [3,2]; x has shape [2,3]");
  EXPECT_EQ(floats(wrong), (std::vector<float>(6, 9.0f)));
  // A chain error comes first, and leaves out untouched too.
  TensorBuffer right = floats_buffer({2, 2}, {9, 9, 9, 9});
  const TensorBuffer x4 = bytes_buffer({2, 2}, DataType::kUInt8, {1, 2, 3, 4});
  EXPECT_EQ(error_of([&] { p.run_into(x4, right); }),
            "Processor step 0 (normalize): 3 means (stddevs) for a last axis of shape [2,2]: the "
            "number of channels must equal the size of the last axis");
  EXPECT_EQ(floats(right), (std::vector<float>(4, 9.0f)));
}

TEST(ProcessorRunInto, OutMayBeTheInput) {
  const Processor p(
      {normalize_op(1.0f, 2.0f), cast_op(DataType::kInt8), cast_op(DataType::kFloat32)});
  std::vector<float> values(5000);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 300) - 40.5f;
  TensorBuffer x = floats_buffer({5000}, values);
  const TensorBuffer expected = p.run(x);
  p.run_into(x, x);
  EXPECT_EQ(bytes_of(x), bytes_of(expected));
  // A second buffer over the same memory, and a uint8 -> uint8 chain over it.
  TensorBuffer u = bytes_buffer({4}, DataType::kUInt8, {0, 10, 200, 255});
  TensorBuffer alias = core::BufferAccess::share(u);
  const Processor q({normalize_op(100.0f, 0.5f), cast_op(DataType::kUInt8)});
  q.run_into(u, alias);
  EXPECT_EQ(bytes_of(u), (std::vector<std::uint8_t>{0, 0, 200, 255}));
}

// docs/processing.md's example pipeline, as written there (with a file and a model output made
// here).
TEST(ProcessorDocs, ExamplePipeline) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("tb_processor_example_" + std::to_string(::getpid()) + ".npy");
  std::vector<std::uint8_t> pixels(224 * 224 * 3);
  for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<std::uint8_t>(i * 7);
  save_npy(path, bytes_buffer({224, 224, 3}, DataType::kUInt8, pixels));
  TensorBuffer logits = TensorBuffer::create_fixed_size({10}, DataType::kInt8);
  for (int i = 0; i < 10; ++i)
    logits.mutable_host<std::int8_t>()[i] = static_cast<std::int8_t>(i * 11 - 50);

  TensorBuffer image = load_npy_tensor(path);  // uint8 [224, 224, 3]
  std::filesystem::remove(path);
  const Processor pre({normalize_op({123.675f, 116.28f, 103.53f}, {58.395f, 57.12f, 57.375f})});
  TensorBuffer input = pre.run(image);                  // float32 [224, 224, 3], one pass
  const Processor post({dequantize_op(-3.0f, 0.05f)});  // (q - (-3)) / (1 / 0.05)
  TensorBuffer scores = post.run(logits);               // float32
  const Processor pre16({normalize_op(127.5f, 127.5f), cast_op(DataType::kFloat16)});
  TensorBuffer bound = TensorBuffer::create_fixed_size({224, 224, 3}, DataType::kFloat16);
  pre16.run_into(image, bound);

  EXPECT_EQ(bytes_of(input),
            bytes_of(normalize(image, {123.675f, 116.28f, 103.53f}, {58.395f, 57.12f, 57.375f})));
  EXPECT_EQ(floats(scores), floats(dequantize(logits, -3.0f, 0.05f)));
  EXPECT_EQ(floats(scores)[0], (-50.0f + 3.0f) / (1.0f / 0.05f));
  EXPECT_EQ(bytes_of(bound), bytes_of(cast(normalize(image, 127.5f, 127.5f), DataType::kFloat16)));
}

}  // namespace
}  // namespace tensorbuf
