// boolean_mask cases (`t[m]`): a [4M, 8] f32 tensor and a [2^26] f32 tensor, each with a 1-D
// mask at densities 0.01, 0.5 and 0.99. Peers: bench/peers_cases/boolean_mask.py (same names,
// sizes and data: NumPy and PyTorch `t[m]`). The family's other ops at density 0.5 on [4M, 8]:
// `boolean_mask_into_` (into an output sized once, n into a count; peers: NumPy `np.compress`
// with `out=`, PyTorch `torch.masked_select(out=)` of the expanded mask) and `compress_`
// (axis 0; peers: `np.compress`, PyTorch `index_select` of the true rows).
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

enum class MaskOp { kBooleanMask, kInto, kCompress };

void masked_case(benchmark::State& state, std::int64_t rows, std::int64_t inner, double density,
                 Device device, MaskOp op = MaskOp::kBooleanMask) {
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
  const double bytes = static_cast<double>(rows) + 2.0 * 4.0 * static_cast<double>(n * inner);
  if (op == MaskOp::kInto) {
    TensorBuffer out = TensorBuffer::create_uninitialized(inner == 1 ? Shape{n} : Shape{n, inner},
                                                          DataType::kFloat32);
    TensorBuffer count = TensorBuffer::create_uninitialized(Shape{1}, DataType::kInt64);
    boolean_mask_into(tensor, mask, out, count, options);  // first touch of out, on `device`
    time_calls(state, device, bytes, [&] { boolean_mask_into(tensor, mask, out, count, options); });
    return;
  }
  if (op == MaskOp::kCompress) {
    CompressOptions compress_options;
    compress_options.device = device;
    compress_options.axis = 0;
    time_calls(state, device, bytes, [&] {
      TensorBuffer out = compress(tensor, mask, compress_options);
      benchmark::DoNotOptimize(out);
    });
    return;
  }
  for (auto _ : state) {
    TensorBuffer out = boolean_mask(tensor, mask, options);
    if (device.is_cuda()) cuda_synchronize(device.index);
    benchmark::DoNotOptimize(out);
  }
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

#define TENSORBUF_MASK_FAMILY_CASE(name, op, device_name, device_value) \
  void BM_##name##_##device_name(benchmark::State& s) {                 \
    masked_case(s, kRows, 8, 0.5, device_value, op);                    \
  }                                                                     \
  TENSORBUF_BENCHMARK(BM_##name##_##device_name, #name, #device_name);

TENSORBUF_MASK_FAMILY_CASE(boolean_mask_into_f32_4mx8_d050, MaskOp::kInto, cpu, Device::cpu())
TENSORBUF_MASK_FAMILY_CASE(boolean_mask_into_f32_4mx8_d050, MaskOp::kInto, cuda, Device::cuda(0))
TENSORBUF_MASK_FAMILY_CASE(compress_f32_4mx8_d050, MaskOp::kCompress, cpu, Device::cpu())
TENSORBUF_MASK_FAMILY_CASE(compress_f32_4mx8_d050, MaskOp::kCompress, cuda, Device::cuda(0))

#undef TENSORBUF_MASK_FAMILY_CASE

#undef TENSORBUF_MASKED_CASES
#undef TENSORBUF_MASKED_CASE

}  // namespace
}  // namespace tensorbuf::bench
