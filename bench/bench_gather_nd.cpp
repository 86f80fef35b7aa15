// gather_nd cases (`params[indices[:, 0]]`): 1M random rows (int64 indices of depth 1) of a
// [1M, 64] f32 tensor, i.e. rows of 256 bytes. Peers: bench/peers_cases/gather_nd.py (same
// names, sizes and data: NumPy `np.take(params, idx, axis=0)`, PyTorch `index_select`).
//
// Bytes per iteration: what the gather must move: the indices read, the selected rows read and
// the output written. The same-run limit is a memcpy of that traffic.
#include <cstdint>
#include <vector>

#include "bench_support.hpp"

namespace tensorbuf::bench {
namespace {

constexpr std::uint64_t kParamsSeed = 21;
constexpr std::uint64_t kIndicesSeed = 22;

void gather_case(benchmark::State& state, std::int64_t params_rows, std::int64_t width,
                 std::int64_t rows, Device device) {
  if (device.is_cuda() && skip_without_cuda(state)) return;
  TensorBuffer params = make_buffer(random_floats(params_rows * width, -1.0, 1.0, kParamsSeed),
                                    Shape{params_rows, width}, DataType::kFloat32);
  TensorBuffer indices = make_index_buffer(random_ints(rows, 0, params_rows, kIndicesSeed),
                                           Shape{rows, 1}, DataType::kInt64);
  if (device.is_cuda()) {
    params.sync_to(device);
    indices.sync_to(device);
  }
  GatherOptions options;
  options.device = device;
  for (auto _ : state) {
    TensorBuffer out = gather_nd(params, indices, options);
    if (device.is_cuda()) cuda_synchronize(device.index);
    benchmark::DoNotOptimize(out);
  }
  const double bytes =
      8.0 * static_cast<double>(rows) + 2.0 * 4.0 * static_cast<double>(rows * width);
  report(state, bytes,
         device.is_cuda() ? cuda_d2d_limit_gbps(bytes) : cpu_memcpy_limit_gbps(bytes));
}

constexpr std::int64_t kRows = std::int64_t{1} << 20;  // 1M rows of 64 f32: 256 MiB each side

#define TENSORBUF_GATHER_CASE(name, device_name, device_value) \
  void BM_##name##_##device_name(benchmark::State& s) {        \
    gather_case(s, kRows, 64, kRows, device_value);            \
  }                                                            \
  TENSORBUF_BENCHMARK(BM_##name##_##device_name, #name, #device_name);

TENSORBUF_GATHER_CASE(gather_nd_f32_1mx64_rows, cpu, Device::cpu())
TENSORBUF_GATHER_CASE(gather_nd_f32_1mx64_rows, cuda, Device::cuda(0))

#undef TENSORBUF_GATHER_CASE

}  // namespace
}  // namespace tensorbuf::bench
