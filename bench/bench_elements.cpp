// Cases of the element-wise indexing ops, on a [64K, 64] f32 tensor (16 MiB) with int64 indices
// of the same shape, uniform over the 64K rows (every element of indices picks a row along
// axis 0, as torch.gather / scatter_reduce_ on dim 0 do):
//  - scatter_elements_add_f32_64kx64: scatter_elements_in_place(..., kAdd), the accumulation
//    of torch `t.scatter_reduce_(0, idx, upd, "sum")` (include_self) and NumPy `np.add.at`;
//  - gather_elements_f32_64kx64: gather_elements on axis 0, torch `t.gather(0, idx)` and NumPy
//    `np.take_along_axis(t, idx, 0)`;
//  - gather_f32_1mx64_rows: gather (axis 0) of 1M random rows of [1M, 64] f32, bench_gather_nd's
//    data, NumPy `np.take(p, i, axis=0)` and torch `index_select`.
// Peers: bench/peers_cases/elements.py (same names, sizes and data).
//
// Bytes per iteration: what the op must move. scatter: the indices and updates read, the
// element each update lands on read and written; gather_elements: the indices read, one element
// read and one written per index; gather: the indices, the rows read and written. The same-run
// limit is a memcpy of that traffic.
#include <cstdint>
#include <vector>

#include "bench_support.hpp"

namespace tensorbuf::bench {
namespace {

constexpr std::int64_t kRows = std::int64_t{1} << 16;
constexpr std::int64_t kWidth = 64;
constexpr std::uint64_t kTensorSeed = 31;
constexpr std::uint64_t kIndicesSeed = 32;
constexpr std::uint64_t kUpdatesSeed = 33;

TensorBuffer element_indices() {
  return make_index_buffer(random_ints(kRows * kWidth, 0, kRows, kIndicesSeed),
                           Shape{kRows, kWidth}, DataType::kInt64);
}

TensorBuffer random_tensor(std::uint64_t seed) {
  return make_buffer(random_floats(kRows * kWidth, -1.0, 1.0, seed), Shape{kRows, kWidth},
                     DataType::kFloat32);
}

void scatter_add_case(benchmark::State& state, Device device) {
  if (device.is_cuda() && skip_without_cuda(state)) return;
  TensorBuffer tensor = random_tensor(kTensorSeed);
  TensorBuffer indices = element_indices();
  TensorBuffer updates = random_tensor(kUpdatesSeed);
  place_on(device, tensor, indices, updates);
  ScatterElementsOptions options;
  options.device = device;
  options.reduction = Reduction::kAdd;
  const double n = static_cast<double>(kRows * kWidth);
  time_calls(state, device, 8.0 * n + 4.0 * n + 2.0 * 4.0 * n,
             [&] { scatter_elements_in_place(tensor, indices, updates, options); });
}

void gather_elements_case(benchmark::State& state, Device device) {
  if (device.is_cuda() && skip_without_cuda(state)) return;
  TensorBuffer params = random_tensor(kTensorSeed);
  TensorBuffer indices = element_indices();
  place_on(device, params, indices);
  GatherOptions options;
  options.device = device;
  const double n = static_cast<double>(kRows * kWidth);
  time_calls(state, device, 8.0 * n + 2.0 * 4.0 * n, [&] {
    TensorBuffer out = gather_elements(params, indices, options);
    benchmark::DoNotOptimize(out);
  });
}

// bench_gather_nd.cpp's data (seeds 21 and 22), through gather on axis 0.
void gather_rows_case(benchmark::State& state, Device device) {
  if (device.is_cuda() && skip_without_cuda(state)) return;
  constexpr std::int64_t kParamsRows = std::int64_t{1} << 20;
  TensorBuffer params = make_buffer(random_floats(kParamsRows * kWidth, -1.0, 1.0, 21),
                                    Shape{kParamsRows, kWidth}, DataType::kFloat32);
  TensorBuffer indices = make_index_buffer(random_ints(kParamsRows, 0, kParamsRows, 22),
                                           Shape{kParamsRows}, DataType::kInt64);
  place_on(device, params, indices);
  GatherOptions options;
  options.device = device;
  const double rows = static_cast<double>(kParamsRows);
  time_calls(state, device, 8.0 * rows + 2.0 * 4.0 * rows * static_cast<double>(kWidth), [&] {
    TensorBuffer out = gather(params, indices, options);
    benchmark::DoNotOptimize(out);
  });
}

#define TENSORBUF_ELEMENTS_CASE(name, function, device_name, device_value) \
  void BM_##name##_##device_name(benchmark::State& s) { function(s, device_value); } \
  TENSORBUF_BENCHMARK(BM_##name##_##device_name, #name, #device_name);

TENSORBUF_ELEMENTS_CASE(scatter_elements_add_f32_64kx64, scatter_add_case, cpu, Device::cpu())
TENSORBUF_ELEMENTS_CASE(scatter_elements_add_f32_64kx64, scatter_add_case, cuda, Device::cuda(0))
TENSORBUF_ELEMENTS_CASE(gather_elements_f32_64kx64, gather_elements_case, cpu, Device::cpu())
TENSORBUF_ELEMENTS_CASE(gather_elements_f32_64kx64, gather_elements_case, cuda, Device::cuda(0))
TENSORBUF_ELEMENTS_CASE(gather_f32_1mx64_rows, gather_rows_case, cpu, Device::cpu())
TENSORBUF_ELEMENTS_CASE(gather_f32_1mx64_rows, gather_rows_case, cuda, Device::cuda(0))

#undef TENSORBUF_ELEMENTS_CASE

}  // namespace
}  // namespace tensorbuf::bench
