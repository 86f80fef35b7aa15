// The fused Processor (spec/processing.md 7): a uint8 image [1080, 1920, 3] (and a 224 x 224 x 3
// frame) -> per-channel normalize -> float32, and -> float16, on the CPU. Beside each, in the
// same run: a memcpy moving the same traffic (half the bytes copied, so read + written match),
// and the same chain as single ops one by one (normalize, then cast). Peers:
// bench/peers_cases/processing.py (same names, sizes and data: PyTorch
// `(x.float() - mean) / std`, NumPy).
//
// Bytes per iteration: the image read (1 byte per element) and the output written (4 or 2).
// The spec's sizes are below the convention's 64 MiB (a 1080p float32 result is 24 MiB), so the
// limit_gbps of the 64 MiB memcpy is reported as usual and the same-traffic memcpy cases give
// the ratio the spec asks for.
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "bench_support.hpp"

namespace tensorbuf::bench {
namespace {

constexpr std::uint64_t kImageSeed = 37;
// ImageNet's means and stddevs on the 0-255 scale.
const std::vector<float> kMeans = {123.675f, 116.28f, 103.53f};
const std::vector<float> kStddevs = {58.395f, 57.12f, 57.375f};

TensorBuffer image(std::int64_t height, std::int64_t width) {
  const std::int64_t n = height * width * 3;
  const std::vector<std::int64_t> values = random_ints(n, 0, 256, kImageSeed);
  TensorBuffer x = TensorBuffer::create_uninitialized({height, width, 3}, DataType::kUInt8);
  auto* p = x.overwrite_host<std::uint8_t>();
  for (std::int64_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(values[i]);
  return x;
}

double traffic(std::int64_t n, DataType out) {
  return static_cast<double>(n) * (1.0 + static_cast<double>(type_size(out)));
}

void fused_case(benchmark::State& state, std::int64_t height, std::int64_t width, DataType out) {
  const TensorBuffer x = image(height, width);
  std::vector<ProcessStep> steps = {normalize_op(kMeans, kStddevs)};
  if (out != DataType::kFloat32) steps.push_back(cast_op(out));
  const Processor p(steps);
  for (auto _ : state) {
    TensorBuffer y = p.run(x);
    benchmark::DoNotOptimize(y);
  }
  const double bytes = traffic(x.flat_size(), out);
  report(state, bytes, cpu_memcpy_limit_gbps(bytes));
}

// The same chain as the single ops, one after the other (an intermediate float32 buffer).
void unfused_case(benchmark::State& state, std::int64_t height, std::int64_t width, DataType out) {
  const TensorBuffer x = image(height, width);
  for (auto _ : state) {
    TensorBuffer y = cast(normalize(x, kMeans, kStddevs), out);
    benchmark::DoNotOptimize(y);
  }
  const double bytes = traffic(x.flat_size(), out);
  report(state, bytes, cpu_memcpy_limit_gbps(bytes));
}

// A memcpy of half the chain's traffic (read + written = the chain's), into a fresh buffer each
// time as the chain's output is, on the library's threads.
void memcpy_case(benchmark::State& state, std::int64_t height, std::int64_t width, DataType out) {
  const double bytes = traffic(height * width * 3, out);
  const auto copy_bytes = static_cast<std::int64_t>(bytes / 2);
  std::unique_ptr<char[]> src(new char[static_cast<std::size_t>(copy_bytes)]);
  std::memset(src.get(), 1, static_cast<std::size_t>(copy_bytes));
  for (auto _ : state) {
    TensorBuffer dst = TensorBuffer::create_uninitialized({copy_bytes}, DataType::kUInt8);
    char* d = static_cast<char*>(dst.overwrite_host_bytes());
    core::parallel_for(copy_bytes, 1 << 16, [&](std::int64_t begin, std::int64_t end) {
      std::memcpy(d + begin, src.get() + begin, static_cast<std::size_t>(end - begin));
    });
    benchmark::DoNotOptimize(dst);
  }
  report(state, bytes, cpu_memcpy_limit_gbps(bytes));
}

#define TENSORBUF_PROCESSING_CASES(size, height, width, out_name, out)                   \
  void BM_processing_##size##_##out_name(benchmark::State& s) {                          \
    fused_case(s, height, width, out);                                                   \
  }                                                                                      \
  TENSORBUF_BENCHMARK(BM_processing_##size##_##out_name,                                 \
                      "processing_u8_" #size "_normalize_" #out_name, "cpu");            \
  void BM_processing_unfused_##size##_##out_name(benchmark::State& s) {                  \
    unfused_case(s, height, width, out);                                                 \
  }                                                                                      \
  TENSORBUF_BENCHMARK(BM_processing_unfused_##size##_##out_name,                         \
                      "processing_u8_" #size "_normalize_" #out_name "_unfused", "cpu"); \
  void BM_processing_memcpy_##size##_##out_name(benchmark::State& s) {                   \
    memcpy_case(s, height, width, out);                                                  \
  }                                                                                      \
  TENSORBUF_BENCHMARK(BM_processing_memcpy_##size##_##out_name,                          \
                      "processing_u8_" #size "_normalize_" #out_name "_memcpy", "cpu");

TENSORBUF_PROCESSING_CASES(1080p, 1080, 1920, f32, DataType::kFloat32)
TENSORBUF_PROCESSING_CASES(1080p, 1080, 1920, f16, DataType::kFloat16)
TENSORBUF_PROCESSING_CASES(224, 224, 224, f32, DataType::kFloat32)
TENSORBUF_PROCESSING_CASES(224, 224, 224, f16, DataType::kFloat16)

#undef TENSORBUF_PROCESSING_CASES

}  // namespace
}  // namespace tensorbuf::bench
