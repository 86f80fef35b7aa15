// TensorBuffer cases: load_array conversions on the CPU, lazy host<->device sync on CUDA.
// Peers: bench/peers_cases/tensor_buffer.py (same names, sizes and data).
#include "bench_support.hpp"

namespace tensorbuf::bench {
namespace {

constexpr std::int64_t kConvertElements = 64 * kMiB;  // 64M floats: 256 MiB in
constexpr std::uint64_t kConvertSeed = 1;
constexpr double kConvertLo = -64.0;  // a fifth of the values clamp
constexpr double kConvertHi = 320.0;

// load_array(float) into a buffer of `type`: reads 4 bytes, writes type_size bytes per element.
void load_array_case(benchmark::State& state, DataType type) {
  const std::vector<float> values =
      random_floats(kConvertElements, kConvertLo, kConvertHi, kConvertSeed);
  const Shape shape{kConvertElements};
  TensorBuffer buffer = TensorBuffer::create_fixed_size(shape, type);  // memory touched once
  for (auto _ : state) {
    buffer.load_array(std::span<const float>(values));
    benchmark::ClobberMemory();
  }
  const double bytes =
      static_cast<double>(kConvertElements) * static_cast<double>(4 + type_size(type));
  report(state, bytes, cpu_memcpy_limit_gbps(bytes));
}

void BM_load_array_f32_to_u8(benchmark::State& state) { load_array_case(state, DataType::kUInt8); }
void BM_load_array_f32_to_f16(benchmark::State& state) {
  load_array_case(state, DataType::kFloat16);
}
void BM_load_array_f32_to_bf16(benchmark::State& state) {
  load_array_case(state, DataType::kBFloat16);
}
TENSORBUF_BENCHMARK(BM_load_array_f32_to_u8, "load_array_f32_to_u8", "cpu");
TENSORBUF_BENCHMARK(BM_load_array_f32_to_f16, "load_array_f32_to_f16", "cpu");
TENSORBUF_BENCHMARK(BM_load_array_f32_to_bf16, "load_array_f32_to_bf16", "cpu");

constexpr std::int64_t kSyncBytes = kGiB;

// Host -> device: the host copy is written (device stale), then sync_to(cuda) uploads it from
// pinned host memory.
void BM_sync_host_to_device(benchmark::State& state) {
  if (skip_without_cuda(state)) return;
  TensorBuffer buffer = TensorBuffer::create_fixed_size(Shape{kSyncBytes}, DataType::kUInt8);
  buffer.sync_to(Device::cuda());
  cuda_synchronize();
  for (auto _ : state) {
    state.PauseTiming();
    buffer.mutable_host_bytes();  // host valid: no copy; the device copy becomes stale
    state.ResumeTiming();
    buffer.sync_to(Device::cuda());
    cuda_synchronize();
  }
  report(state, static_cast<double>(kSyncBytes), cuda_d2d_limit_gbps(2.0 * kSyncBytes));
}

// Device -> host: the device copy is written (host stale), then a host read downloads it.
void BM_sync_device_to_host(benchmark::State& state) {
  if (skip_without_cuda(state)) return;
  TensorBuffer buffer = TensorBuffer::create_fixed_size(Shape{kSyncBytes}, DataType::kUInt8);
  buffer.sync_to(Device::cuda());
  cuda_synchronize();
  for (auto _ : state) {
    state.PauseTiming();
    buffer.mutable_device_bytes();  // device valid: no copy; the host copy becomes stale
    cuda_synchronize();
    state.ResumeTiming();
    benchmark::DoNotOptimize(buffer.host_bytes());  // copies and waits
  }
  report(state, static_cast<double>(kSyncBytes), cuda_d2d_limit_gbps(2.0 * kSyncBytes));
}
TENSORBUF_BENCHMARK(BM_sync_host_to_device, "sync_host_to_device_1gib", "cuda");
TENSORBUF_BENCHMARK(BM_sync_device_to_host, "sync_device_to_host_1gib", "cuda");

}  // namespace
}  // namespace tensorbuf::bench
