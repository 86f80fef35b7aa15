// The fused Processor (spec/processing.md 7): a uint8 image [1080, 1920, 3] (and a 224 x 224 x 3
// frame) -> per-channel normalize -> float32, and -> float16, on the CPU and on CUDA (there
// against a device-to-device copy of the same traffic, the spec's GPU limit). Beside each, in the
// same run: a memcpy moving the same traffic (half the bytes copied, so read + written match),
// and the same chain as single ops one by one (normalize, then cast). Below them, the single
// ops no chain names (cast, dequantize, dequantize_linear). Peers:
// bench/peers_cases/processing.py (same names, sizes and data: PyTorch
// `(x.float() - mean) / std`, NumPy).
//
// Bytes per iteration: the image read (1 byte per element) and the output written (4 or 2).
// The spec's sizes are below the convention's 64 MiB (a 1080p float32 result is 24 MiB), so the
// limit_gbps of the 64 MiB memcpy is reported as usual and the same-traffic memcpy cases give
// the ratio the spec asks for.
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "bench_support.hpp"
#include "cpu/processing_tuning.hpp"
#include "tensorbuf/quantize_linear.hpp"

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

// A memcpy of half the chain's traffic (read + written = the chain's), into a fresh buffer each
// time as the chain's output is, on the library's threads.
class SameTrafficCopy {
 public:
  explicit SameTrafficCopy(double traffic_bytes)
      : bytes_(static_cast<std::int64_t>(traffic_bytes / 2)),
        src_(new char[static_cast<std::size_t>(bytes_)]) {
    std::memset(src_.get(), 1, static_cast<std::size_t>(bytes_));
  }
  void operator()() const {
    TensorBuffer dst = TensorBuffer::create_uninitialized({bytes_}, DataType::kUInt8);
    char* d = static_cast<char*>(dst.overwrite_host_bytes());
    core::parallel_for(bytes_, 1 << 16, [&](std::int64_t begin, std::int64_t end) {
      std::memcpy(d + begin, src_.get() + begin, static_cast<std::size_t>(end - begin));
    });
    benchmark::DoNotOptimize(dst);
  }

 private:
  std::int64_t bytes_;
  std::unique_ptr<char[]> src_;
};

// The op and the same-traffic memcpy alternated call by call (31 rounds after the timed loop),
// so that a shared machine's drift hits both alike: counters "memcpy_ms" (median) and
// "x_memcpy" (median memcpy time / median op time: the op's rate as a fraction of memcpy's).
template <class Op>
void alternate_with_memcpy(benchmark::State& state, const Op& op, double traffic_bytes) {
  const SameTrafficCopy copy(traffic_bytes);
  std::vector<double> op_s;
  std::vector<double> copy_s;
  for (int r = 0; r < 31; ++r) {
    for (int which = 0; which < 2; ++which) {
      const auto t0 = std::chrono::steady_clock::now();
      if (which == 0) {
        op();
      } else {
        copy();
      }
      const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
      (which == 0 ? op_s : copy_s).push_back(dt.count());
    }
  }
  const double op_median = detail::median(op_s);
  const double copy_median = detail::median(copy_s);
  state.counters["memcpy_ms"] = benchmark::Counter(copy_median * 1e3);
  state.counters["x_memcpy"] = benchmark::Counter(copy_median / op_median);
}

void fused_case(benchmark::State& state, std::int64_t height, std::int64_t width, DataType out) {
  const TensorBuffer x = image(height, width);
  std::vector<ProcessStep> steps = {normalize_op(kMeans, kStddevs)};
  if (out != DataType::kFloat32) steps.push_back(cast_op(out));
  const Processor p(steps);
  auto op = [&] {
    TensorBuffer y = p.run(x);
    benchmark::DoNotOptimize(y);
  };
  for (auto _ : state) op();
  const double bytes = traffic(x.flat_size(), out);
  report(state, bytes, cpu_memcpy_limit_gbps(bytes));
  alternate_with_memcpy(state, op, bytes);
}

// The same chain as the single ops, one after the other (an intermediate float32 buffer).
void unfused_case(benchmark::State& state, std::int64_t height, std::int64_t width, DataType out) {
  const TensorBuffer x = image(height, width);
  auto op = [&] {
    TensorBuffer y = cast(normalize(x, kMeans, kStddevs), out);
    benchmark::DoNotOptimize(y);
  };
  for (auto _ : state) op();
  const double bytes = traffic(x.flat_size(), out);
  report(state, bytes, cpu_memcpy_limit_gbps(bytes));
  alternate_with_memcpy(state, op, bytes);
}

// The same-traffic memcpy alone.
void memcpy_case(benchmark::State& state, std::int64_t height, std::int64_t width, DataType out) {
  const double bytes = traffic(height * width * 3, out);
  const SameTrafficCopy copy(bytes);
  for (auto _ : state) copy();
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

// The chain on CUDA: the image already on the device, timed to the end of the device work.
void cuda_fused_case(benchmark::State& state, std::int64_t height, std::int64_t width,
                     DataType out) {
  if (skip_without_cuda(state)) return;
  const Device device = Device::cuda(0);
  const TensorBuffer x = image(height, width);
  place_on(device, x);
  std::vector<ProcessStep> steps = {normalize_op(kMeans, kStddevs)};
  if (out != DataType::kFloat32) steps.push_back(cast_op(out));
  const Processor p(steps);
  ProcessOptions options;
  options.device = device;
  time_calls(state, device, traffic(x.flat_size(), out), [&] {
    TensorBuffer y = p.run(x, options);
    benchmark::DoNotOptimize(y);
  });
}

#define TENSORBUF_PROCESSING_CUDA_CASE(size, height, width, out_name, out) \
  void BM_processing_cuda_##size##_##out_name(benchmark::State& s) {      \
    cuda_fused_case(s, height, width, out);                               \
  }                                                                       \
  TENSORBUF_BENCHMARK(BM_processing_cuda_##size##_##out_name,             \
                      "processing_u8_" #size "_normalize_" #out_name, "cuda");

TENSORBUF_PROCESSING_CUDA_CASE(1080p, 1080, 1920, f32, DataType::kFloat32)
TENSORBUF_PROCESSING_CUDA_CASE(1080p, 1080, 1920, f16, DataType::kFloat16)
TENSORBUF_PROCESSING_CUDA_CASE(224, 224, 224, f32, DataType::kFloat32)
TENSORBUF_PROCESSING_CUDA_CASE(224, 224, 224, f16, DataType::kFloat16)

#undef TENSORBUF_PROCESSING_CUDA_CASE

// An int8 model's input: uint8 image -> per-channel normalize -> quantize (zero point -3, scale
// 0.02) -> int8, one Processor (8-bit in, 8-bit out: 2 bytes of traffic per element).
// `direct`: the variant without the 8-bit table (src/cpu/processing.cpp), for the A/B.
void int8_chain_case(benchmark::State& state, std::int64_t height, std::int64_t width,
                     bool direct = false) {
  const TensorBuffer x = image(height, width);
  struct TableUse {
    explicit TableUse(bool off) {
      if (off) cpu::set_process_table_use(cpu::ProcessTableUse::kNever);
    }
    ~TableUse() { cpu::set_process_table_use(cpu::ProcessTableUse::kAuto); }
  } table_use(direct);
  const Processor p(
      {normalize_op(kMeans, kStddevs), quantize_op(-3.0f, 0.02f), cast_op(DataType::kInt8)});
  auto op = [&] {
    TensorBuffer y = p.run(x);
    benchmark::DoNotOptimize(y);
  };
  for (auto _ : state) op();
  const double bytes = traffic(x.flat_size(), DataType::kInt8);
  report(state, bytes, cpu_memcpy_limit_gbps(bytes));
  alternate_with_memcpy(state, op, bytes);
}

void BM_processing_1080p_quantize_i8(benchmark::State& s) { int8_chain_case(s, 1080, 1920); }
TENSORBUF_BENCHMARK(BM_processing_1080p_quantize_i8, "processing_u8_1080p_normalize_quantize_i8",
                    "cpu");
void BM_processing_224_quantize_i8(benchmark::State& s) { int8_chain_case(s, 224, 224); }
TENSORBUF_BENCHMARK(BM_processing_224_quantize_i8, "processing_u8_224_normalize_quantize_i8",
                    "cpu");
void BM_processing_1080p_quantize_i8_direct(benchmark::State& s) {
  int8_chain_case(s, 1080, 1920, true);
}
TENSORBUF_BENCHMARK(BM_processing_1080p_quantize_i8_direct,
                    "processing_u8_1080p_normalize_quantize_i8_direct", "cpu");
void BM_processing_224_quantize_i8_direct(benchmark::State& s) {
  int8_chain_case(s, 224, 224, true);
}
TENSORBUF_BENCHMARK(BM_processing_224_quantize_i8_direct,
                    "processing_u8_224_normalize_quantize_i8_direct", "cpu");

// quantize_linear float32 [h, w, 3] -> uint8, per tensor (scale 0.02, zero point 128; values
// in [-3, 3), a few saturating): 4 bytes read and 1 written per element.
constexpr std::uint64_t kQuantizeSeed = 38;

void quantize_linear_case(benchmark::State& state, std::int64_t height, std::int64_t width) {
  const std::int64_t n = height * width * 3;
  const TensorBuffer x = make_buffer(random_floats(n, -3.0, 3.0, kQuantizeSeed), {height, width, 3},
                                     DataType::kFloat32);
  TensorBuffer scale = TensorBuffer::create_fixed_size({}, DataType::kFloat32);
  scale.mutable_host<float>()[0] = 0.02f;
  TensorBuffer zero = TensorBuffer::create_fixed_size({}, DataType::kUInt8);
  zero.mutable_host<std::uint8_t>()[0] = 128;
  auto op = [&] {
    TensorBuffer y = quantize_linear(x, scale, zero);
    benchmark::DoNotOptimize(y);
  };
  for (auto _ : state) op();
  const double bytes = static_cast<double>(n) * 5.0;
  report(state, bytes, cpu_memcpy_limit_gbps(bytes));
  alternate_with_memcpy(state, op, bytes);
}

void BM_quantize_linear_1080p(benchmark::State& s) { quantize_linear_case(s, 1080, 1920); }
TENSORBUF_BENCHMARK(BM_quantize_linear_1080p, "quantize_linear_f32_1080p_u8", "cpu");
void BM_quantize_linear_224(benchmark::State& s) { quantize_linear_case(s, 224, 224); }
TENSORBUF_BENCHMARK(BM_quantize_linear_224, "quantize_linear_f32_224_u8", "cpu");

// The single ops that no chain above names, at 1080p: cast float32 (quantize_linear's input)
// -> float16 (4 bytes read, 2 written per element); dequantize and dequantize_linear of the
// uint8 image (zero point 128, scale 0.02) -> float32 (1 read, 4 written).
template <class Op>
void single_op_case(benchmark::State& state, const Op& call, double bytes) {
  auto op = [&] {
    TensorBuffer y = call();
    benchmark::DoNotOptimize(y);
  };
  for (auto _ : state) op();
  report(state, bytes, cpu_memcpy_limit_gbps(bytes));
  alternate_with_memcpy(state, op, bytes);
}

constexpr std::int64_t k1080pElements = 1080 * 1920 * 3;

void BM_cast_1080p_f16(benchmark::State& state) {
  const TensorBuffer x = make_buffer(random_floats(k1080pElements, -3.0, 3.0, kQuantizeSeed),
                                     {1080, 1920, 3}, DataType::kFloat32);
  single_op_case(
      state, [&] { return cast(x, DataType::kFloat16); }, 6.0 * k1080pElements);
}
TENSORBUF_BENCHMARK(BM_cast_1080p_f16, "cast_f32_1080p_f16", "cpu");

void BM_dequantize_1080p(benchmark::State& state) {
  const TensorBuffer x = image(1080, 1920);
  single_op_case(
      state, [&] { return dequantize(x, 128.0f, 0.02f); }, 5.0 * k1080pElements);
}
TENSORBUF_BENCHMARK(BM_dequantize_1080p, "dequantize_u8_1080p_f32", "cpu");

void BM_dequantize_linear_1080p(benchmark::State& state) {
  const TensorBuffer x = image(1080, 1920);
  TensorBuffer scale = TensorBuffer::create_fixed_size({}, DataType::kFloat32);
  scale.mutable_host<float>()[0] = 0.02f;
  TensorBuffer zero = TensorBuffer::create_fixed_size({}, DataType::kUInt8);
  zero.mutable_host<std::uint8_t>()[0] = 128;
  single_op_case(
      state, [&] { return dequantize_linear(x, scale, zero); }, 5.0 * k1080pElements);
}
TENSORBUF_BENCHMARK(BM_dequantize_linear_1080p, "dequantize_linear_u8_1080p_f32", "cpu");

}  // namespace
}  // namespace tensorbuf::bench
