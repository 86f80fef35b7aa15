// boolean_mask cases (`t[m]`): a [4M, 8] f32 tensor and a [2^26] f32 tensor, each with a 1-D
// mask at densities 0.01, 0.5 and 0.99. Peers: bench/peers_cases/boolean_mask.py (same names,
// sizes and data: NumPy and PyTorch `t[m]`).
//
// Bytes per iteration: what `t[m]` must move: the mask, the selected rows read and written.
// The same-run limit is a memcpy of that traffic.
#include <cstdint>
#include <cstring>
#include <vector>

#include "bench_support.hpp"

namespace tensorbuf::bench {
namespace {

constexpr std::uint64_t kTensorSeed = 11;
constexpr std::uint64_t kMaskSeed = 12;

void masked_case(benchmark::State& state, std::int64_t rows, std::int64_t inner, double density,
                 Device device) {
  if (device.is_cuda() && skip_without_cuda(state)) return;
  const std::vector<std::uint8_t> mask_bytes = random_bools(rows, density, kMaskSeed);
  std::int64_t n = 0;
  for (std::uint8_t b : mask_bytes) n += b;
  TensorBuffer tensor = make_buffer(random_floats(rows * inner, -1.0, 1.0, kTensorSeed),
                                    inner == 1 ? Shape{rows} : Shape{rows, inner},
                                    DataType::kFloat32);
  TensorBuffer mask = TensorBuffer::create_uninitialized(Shape{rows}, DataType::kBool);
  std::memcpy(mask.overwrite_host_bytes(), mask_bytes.data(), mask_bytes.size());
  if (device.is_cuda()) {
    tensor.sync_to(device);
    mask.sync_to(device);
  }
  BooleanMaskOptions options;
  options.device = device;
  for (auto _ : state) {
    TensorBuffer out = boolean_mask(tensor, mask, options);
    if (device.is_cuda()) cuda_synchronize(device.index);
    benchmark::DoNotOptimize(out);
  }
  const double bytes = static_cast<double>(rows) + 2.0 * 4.0 * static_cast<double>(n * inner);
  report(state, bytes,
         device.is_cuda() ? cuda_d2d_limit_gbps(bytes) : cpu_memcpy_limit_gbps(bytes));
}

constexpr std::int64_t kRows = std::int64_t{4} << 20;  // [4M, 8] f32: 128 MiB
constexpr std::int64_t kFlat = std::int64_t{1} << 26;  // [2^26] f32: 256 MiB

#define TENSORBUF_MASKED_CASE(name, rows, inner, density, device_name, device_value) \
  void BM_##name##_##device_name(benchmark::State& s) {                             \
    masked_case(s, rows, inner, density, device_value);                             \
  }                                                                                 \
  TENSORBUF_BENCHMARK(BM_##name##_##device_name, #name, #device_name);

#define TENSORBUF_MASKED_CASES(device_name, device_value)                                        \
  TENSORBUF_MASKED_CASE(boolean_mask_f32_4mx8_d001, kRows, 8, 0.01, device_name, device_value) \
  TENSORBUF_MASKED_CASE(boolean_mask_f32_4mx8_d050, kRows, 8, 0.5, device_name, device_value)  \
  TENSORBUF_MASKED_CASE(boolean_mask_f32_4mx8_d099, kRows, 8, 0.99, device_name, device_value) \
  TENSORBUF_MASKED_CASE(boolean_mask_f32_64m_d050, kFlat, 1, 0.5, device_name, device_value)

TENSORBUF_MASKED_CASES(cpu, Device::cpu())
TENSORBUF_MASKED_CASES(cuda, Device::cuda(0))

#undef TENSORBUF_MASKED_CASES
#undef TENSORBUF_MASKED_CASE

}  // namespace
}  // namespace tensorbuf::bench
