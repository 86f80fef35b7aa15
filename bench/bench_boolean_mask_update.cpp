// boolean_mask_update cases: a [4M, 8] f32 tensor with a 1-D mask at densities 0.01, 0.5, 0.99
// and a [2^26] f32 tensor with a 1-D mask at 0.5; updates [n] + trailing (rows); out of place
// (`o = t.copy(); o[m] = u`) and in place (`t[m] = u`). Peers: bench/peers_cases/
// boolean_mask_update.py (same names, sizes and data).
//
// Bytes per iteration: out of place, tensor read + output written + mask + updates (the issue's
// definition; the same-run limit is a memcpy of that traffic). In place, mask + updates + the
// masked rows written: what `t[m] = u` must move.
#include <cstdint>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "cuda/cuda_tuning.hpp"

namespace tensorbuf::bench {
namespace {

constexpr std::uint64_t kTensorSeed = 11;
constexpr std::uint64_t kMaskSeed = 12;
constexpr std::uint64_t kUpdatesSeed = 13;

struct Inputs {
  TensorBuffer tensor, mask, updates;
  double out_of_place_bytes = 0;
  double in_place_bytes = 0;
};

Inputs make_inputs(std::int64_t rows, std::int64_t inner, double density, Device device) {
  const Shape tensor_shape = inner == 1 ? Shape{rows} : Shape{rows, inner};
  const std::vector<std::uint8_t> mask_bytes = random_bools(rows, density, kMaskSeed);
  std::int64_t n = 0;
  for (std::uint8_t b : mask_bytes) n += b;
  const Shape updates_shape = inner == 1 ? Shape{n} : Shape{n, inner};
  Inputs in{make_buffer(random_floats(rows * inner, -1.0, 1.0, kTensorSeed), tensor_shape,
                        DataType::kFloat32),
            TensorBuffer::create_uninitialized(Shape{rows}, DataType::kBool),
            make_buffer(random_floats(n * inner, 2.0, 3.0, kUpdatesSeed), updates_shape,
                        DataType::kFloat32)};
  std::memcpy(in.mask.overwrite_host_bytes(), mask_bytes.data(), mask_bytes.size());
  const double tensor_bytes = static_cast<double>(rows * inner * 4);
  const double updates_bytes = static_cast<double>(n * inner * 4);
  in.out_of_place_bytes = 2 * tensor_bytes + static_cast<double>(rows) + updates_bytes;
  in.in_place_bytes = static_cast<double>(rows) + 2 * updates_bytes;
  if (device.is_cuda()) {
    in.tensor.sync_to(device);
    in.mask.sync_to(device);
    in.updates.sync_to(device);
  }
  return in;
}

double limit_for(Device device, double bytes) {
  return device.is_cuda() ? cuda_d2d_limit_gbps(bytes) : cpu_memcpy_limit_gbps(bytes);
}

void out_of_place_case(benchmark::State& state, std::int64_t rows, std::int64_t inner,
                       double density, Device device) {
  if (device.is_cuda() && skip_without_cuda(state)) return;
  Inputs in = make_inputs(rows, inner, density, device);
  BooleanMaskUpdateOptions options;
  options.device = device;
  for (auto _ : state) {
    TensorBuffer out = boolean_mask_update(in.tensor, in.mask, in.updates, options);
    if (device.is_cuda()) cuda_synchronize(device.index);
    benchmark::DoNotOptimize(out);
  }
  report(state, in.out_of_place_bytes, limit_for(device, in.out_of_place_bytes));
}

void in_place_case(benchmark::State& state, std::int64_t rows, std::int64_t inner, double density,
                   Device device) {
  if (device.is_cuda() && skip_without_cuda(state)) return;
  Inputs in = make_inputs(rows, inner, density, device);
  BooleanMaskUpdateOptions options;
  options.device = device;
  for (auto _ : state) {
    boolean_mask_update_in_place(in.tensor, in.mask, in.updates, options);
    if (device.is_cuda()) cuda_synchronize(device.index);
    benchmark::ClobberMemory();
  }
  report(state, in.in_place_bytes, limit_for(device, in.in_place_bytes));
}

// The CUDA variants (kernels/boolean_mask_update_variants.hpp: write pass, tile scan), one case
// per variant and form, so one GPU run measures each against the default (bench/RESULTS.md,
// "Pending H200 run"). The switch is restored after the case.
template <bool kInPlace>
void variant_case(benchmark::State& state, std::int64_t rows, std::int64_t inner, double density,
                  kernels::MaskUpdatePass pass, kernels::MaskUpdateRanks ranks) {
  const cuda::CudaTuning saved = cuda::cuda_tuning();
  cuda::CudaTuning tuning = saved;
  if (kInPlace) {
    tuning.mask_update_in_place = pass;
  } else {
    tuning.mask_update_out_of_place = tuning.mask_update_out_of_place_flat = pass;
  }
  tuning.mask_update_ranks = ranks;
  cuda::set_cuda_tuning(tuning);
  if (kInPlace) {
    in_place_case(state, rows, inner, density, Device::cuda(0));
  } else {
    out_of_place_case(state, rows, inner, density, Device::cuda(0));
  }
  cuda::set_cuda_tuning(saved);
}

constexpr std::int64_t kRows = std::int64_t{4} << 20;  // [4M, 8] f32: 128 MiB
constexpr std::int64_t kFlat = std::int64_t{1} << 26;  // [2^26] f32: 256 MiB

#define TENSORBUF_MASK_CASES(device_name, device_value)                                            \
  void BM_oop_rows_d001_##device_name(benchmark::State& s) {                                       \
    out_of_place_case(s, kRows, 8, 0.01, device_value);                                            \
  }                                                                                                \
  void BM_oop_rows_d050_##device_name(benchmark::State& s) {                                       \
    out_of_place_case(s, kRows, 8, 0.5, device_value);                                             \
  }                                                                                                \
  void BM_oop_rows_d099_##device_name(benchmark::State& s) {                                       \
    out_of_place_case(s, kRows, 8, 0.99, device_value);                                            \
  }                                                                                                \
  void BM_oop_flat_d050_##device_name(benchmark::State& s) {                                       \
    out_of_place_case(s, kFlat, 1, 0.5, device_value);                                             \
  }                                                                                                \
  void BM_ip_rows_d001_##device_name(benchmark::State& s) {                                        \
    in_place_case(s, kRows, 8, 0.01, device_value);                                                \
  }                                                                                                \
  void BM_ip_rows_d050_##device_name(benchmark::State& s) {                                        \
    in_place_case(s, kRows, 8, 0.5, device_value);                                                 \
  }                                                                                                \
  void BM_ip_rows_d099_##device_name(benchmark::State& s) {                                        \
    in_place_case(s, kRows, 8, 0.99, device_value);                                                \
  }                                                                                                \
  void BM_ip_flat_d050_##device_name(benchmark::State& s) {                                        \
    in_place_case(s, kFlat, 1, 0.5, device_value);                                                 \
  }                                                                                                \
  TENSORBUF_BENCHMARK(BM_oop_rows_d001_##device_name, "boolean_mask_update_f32_4mx8_d001",         \
                      #device_name);                                                               \
  TENSORBUF_BENCHMARK(BM_oop_rows_d050_##device_name, "boolean_mask_update_f32_4mx8_d050",         \
                      #device_name);                                                               \
  TENSORBUF_BENCHMARK(BM_oop_rows_d099_##device_name, "boolean_mask_update_f32_4mx8_d099",         \
                      #device_name);                                                               \
  TENSORBUF_BENCHMARK(BM_oop_flat_d050_##device_name, "boolean_mask_update_f32_64m_d050",          \
                      #device_name);                                                               \
  TENSORBUF_BENCHMARK(BM_ip_rows_d001_##device_name, "boolean_mask_update_in_place_f32_4mx8_d001", \
                      #device_name);                                                               \
  TENSORBUF_BENCHMARK(BM_ip_rows_d050_##device_name, "boolean_mask_update_in_place_f32_4mx8_d050", \
                      #device_name);                                                               \
  TENSORBUF_BENCHMARK(BM_ip_rows_d099_##device_name, "boolean_mask_update_in_place_f32_4mx8_d099", \
                      #device_name);                                                               \
  TENSORBUF_BENCHMARK(BM_ip_flat_d050_##device_name, "boolean_mask_update_in_place_f32_64m_d050",  \
                      #device_name);

TENSORBUF_MASK_CASES(cpu, Device::cpu())
TENSORBUF_MASK_CASES(cuda, Device::cuda(0))

#undef TENSORBUF_MASK_CASES

// <case>_tiles / <case>_copy_tiles: the same work as <case>/cuda with the variant's pass;
// <case>_scan_counts: the tile scan as one scan of counts computed as it reads the mask
// (MaskUpdateRanks::kScanOfCounts): 3 launches per call instead of 4.
#define TENSORBUF_MASK_VARIANT(name, in_place, rows, inner, density, pass, ranks)  \
  void BM_##name(benchmark::State& s) {                                            \
    variant_case<in_place>(s, rows, inner, density, kernels::MaskUpdatePass::pass, \
                           kernels::MaskUpdateRanks::ranks);                       \
  }                                                                                \
  TENSORBUF_BENCHMARK(BM_##name, #name, "cuda");

TENSORBUF_MASK_VARIANT(boolean_mask_update_in_place_f32_4mx8_d001_tiles, true, kRows, 8, 0.01,
                       kTiles, kCountThenScan)
TENSORBUF_MASK_VARIANT(boolean_mask_update_in_place_f32_4mx8_d050_tiles, true, kRows, 8, 0.5,
                       kTiles, kCountThenScan)
TENSORBUF_MASK_VARIANT(boolean_mask_update_in_place_f32_4mx8_d099_tiles, true, kRows, 8, 0.99,
                       kTiles, kCountThenScan)
TENSORBUF_MASK_VARIANT(boolean_mask_update_in_place_f32_64m_d050_tiles, true, kFlat, 1, 0.5, kTiles,
                       kCountThenScan)
TENSORBUF_MASK_VARIANT(boolean_mask_update_f32_4mx8_d001_tiles, false, kRows, 8, 0.01, kTiles,
                       kCountThenScan)
TENSORBUF_MASK_VARIANT(boolean_mask_update_f32_4mx8_d050_tiles, false, kRows, 8, 0.5, kTiles,
                       kCountThenScan)
TENSORBUF_MASK_VARIANT(boolean_mask_update_f32_64m_d050_tiles, false, kFlat, 1, 0.5, kTiles,
                       kCountThenScan)
// The element pass where the tile pass is the default (faster on an H200): kept measurable.
TENSORBUF_MASK_VARIANT(boolean_mask_update_in_place_f32_4mx8_d050_elements, true, kRows, 8, 0.5,
                       kElements, kCountThenScan)
TENSORBUF_MASK_VARIANT(boolean_mask_update_f32_64m_d050_elements, false, kFlat, 1, 0.5, kElements,
                       kCountThenScan)
TENSORBUF_MASK_VARIANT(boolean_mask_update_f32_4mx8_d001_copy_tiles, false, kRows, 8, 0.01,
                       kCopyThenTiles, kCountThenScan)
TENSORBUF_MASK_VARIANT(boolean_mask_update_f32_4mx8_d050_copy_tiles, false, kRows, 8, 0.5,
                       kCopyThenTiles, kCountThenScan)
TENSORBUF_MASK_VARIANT(boolean_mask_update_f32_64m_d050_copy_tiles, false, kFlat, 1, 0.5,
                       kCopyThenTiles, kCountThenScan)

TENSORBUF_MASK_VARIANT(boolean_mask_update_in_place_f32_4mx8_d001_scan_counts, true, kRows, 8, 0.01,
                       kElements, kScanOfCounts)
TENSORBUF_MASK_VARIANT(boolean_mask_update_in_place_f32_4mx8_d050_scan_counts, true, kRows, 8, 0.5,
                       kElements, kScanOfCounts)
TENSORBUF_MASK_VARIANT(boolean_mask_update_in_place_f32_64m_d050_scan_counts, true, kFlat, 1, 0.5,
                       kElements, kScanOfCounts)
TENSORBUF_MASK_VARIANT(boolean_mask_update_in_place_f32_4mx8_d050_tiles_scan_counts, true, kRows, 8,
                       0.5, kTiles, kScanOfCounts)
TENSORBUF_MASK_VARIANT(boolean_mask_update_f32_4mx8_d001_scan_counts, false, kRows, 8, 0.01,
                       kElements, kScanOfCounts)
TENSORBUF_MASK_VARIANT(boolean_mask_update_f32_4mx8_d050_scan_counts, false, kRows, 8, 0.5,
                       kElements, kScanOfCounts)
TENSORBUF_MASK_VARIANT(boolean_mask_update_f32_64m_d050_scan_counts, false, kFlat, 1, 0.5,
                       kElements, kScanOfCounts)

#undef TENSORBUF_MASK_VARIANT

}  // namespace
}  // namespace tensorbuf::bench
