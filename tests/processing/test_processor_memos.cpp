// A Processor keeps what its CPU runs derive from its parameters (the 8-bit table of a chain,
// the division-free normalize's check; core/process_memos.hpp): a second run, a run on another
// input dtype, and runs on several threads at once (the first ones racing to build them) give
// the single ops' bits, applied one by one to a fresh input.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cpu/cpu_features.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

const std::vector<float> kMeans = {123.675f, 116.28f, 103.53f};
const std::vector<float> kStddevs = {58.395f, 57.12f, 57.375f};

std::vector<std::uint8_t> bytes_of(const TensorBuffer& b) {
  const auto* p = static_cast<const std::uint8_t*>(b.host_bytes());
  return {p, p + b.size_bytes()};
}

// [rows, 3] random bytes of `type` (bool as 0/1): enough elements for the 8-bit table (8 x its
// 256 x 3 entries) and for the division-free check (256 x 3).
TensorBuffer image(DataType type, std::int64_t rows = 4000, std::uint32_t seed = 224) {
  std::mt19937 rng(seed);
  TensorBuffer x = TensorBuffer::create_fixed_size({rows, 3}, type);
  auto* p = static_cast<std::uint8_t*>(x.mutable_host_bytes());
  for (std::int64_t i = 0; i < rows * 3; ++i) {
    p[i] = static_cast<std::uint8_t>(type == DataType::kBool ? rng() % 2 : rng() % 256);
  }
  return x;
}

// The chains under test: the image chains (direct, division-free where checked) and an int8
// model's input (the 8-bit table), each with its single ops one by one.
struct Chain {
  std::string name;
  std::vector<ProcessStep> steps;
  TensorBuffer (*single_ops)(const TensorBuffer&);
};

std::vector<Chain> chains() {
  return {
      {"normalize -> float32",
       {normalize_op(kMeans, kStddevs)},
       [](const TensorBuffer& x) { return normalize(x, kMeans, kStddevs); }},
      {"normalize -> float16",
       {normalize_op(kMeans, kStddevs), cast_op(DataType::kFloat16)},
       [](const TensorBuffer& x) {
         return cast(normalize(x, kMeans, kStddevs), DataType::kFloat16);
       }},
      {"normalize -> quantize -> int8",
       {normalize_op(kMeans, kStddevs), quantize_op(-3.0f, 0.02f), cast_op(DataType::kInt8)},
       [](const TensorBuffer& x) {
         return cast(quantize(normalize(x, kMeans, kStddevs), -3.0f, 0.02f), DataType::kInt8);
       }},
  };
}

class ProcessorMemos : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { cpu::set_simd_enabled(GetParam()); }
  void TearDown() override { cpu::set_simd_enabled(true); }
};

INSTANTIATE_TEST_SUITE_P(Simd, ProcessorMemos, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& param) {
                           return param.param ? "Simd" : "Portable";
                         });

// One Processor run again and again, alternating the input dtype (each dtype has its own
// plan, so its own table), also through run_into: every run the single ops' bits.
TEST_P(ProcessorMemos, RunsAgainAndOnOtherDtypesGiveTheSingleOpsBits) {
  for (const Chain& chain : chains()) {
    const Processor p(chain.steps);
    for (int round = 0; round < 3; ++round) {
      for (DataType type : {DataType::kUInt8, DataType::kInt8, DataType::kBool}) {
        const TensorBuffer x = image(type, 4000, 224 + static_cast<std::uint32_t>(round));
        const std::string what =
            chain.name + ", " + std::string(to_string(type)) + ", round " + std::to_string(round);
        const std::vector<std::uint8_t> expected = bytes_of(chain.single_ops(x));
        EXPECT_EQ(bytes_of(p.run(x)), expected) << what;
        TensorBuffer out = TensorBuffer::create_fixed_size({4000, 3}, p.output_type(type));
        p.run_into(x, out);
        EXPECT_EQ(bytes_of(out), expected) << what << ", run_into";
      }
    }
  }
}

// A kept table or check serves a run shorter than the check itself (the same bits).
TEST_P(ProcessorMemos, AShortRunAfterALongOneGivesTheSingleOpsBits) {
  for (const Chain& chain : chains()) {
    const Processor p(chain.steps);
    const TensorBuffer long_x = image(DataType::kUInt8);
    EXPECT_EQ(bytes_of(p.run(long_x)), bytes_of(chain.single_ops(long_x))) << chain.name;
    const TensorBuffer short_x = image(DataType::kUInt8, 7, 5);
    EXPECT_EQ(bytes_of(p.run(short_x)), bytes_of(chain.single_ops(short_x))) << chain.name;
  }
}

// Fresh Processors run from four threads at once: the first runs race to build what the
// Processor keeps; every thread's every run gives the single ops' bits.
TEST_P(ProcessorMemos, ConcurrentRunsOfOneProcessorGiveTheSingleOpsBits) {
  constexpr int kThreads = 4;
  constexpr int kRuns = 4;
  const TensorBuffer x = image(DataType::kUInt8);
  for (const Chain& chain : chains()) {
    const std::vector<std::uint8_t> expected = bytes_of(chain.single_ops(x));
    for (int trial = 0; trial < 8; ++trial) {
      const Processor p(chain.steps);
      std::vector<int> mismatches(kThreads, 0);
      std::vector<std::thread> threads;
      for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
          for (int r = 0; r < kRuns; ++r) mismatches[t] += bytes_of(p.run(x)) != expected;
        });
      }
      for (std::thread& thread : threads) thread.join();
      for (int t = 0; t < kThreads; ++t) {
        EXPECT_EQ(mismatches[t], 0) << chain.name << ", trial " << trial << ", thread " << t;
      }
    }
  }
}

}  // namespace
}  // namespace tensorbuf
