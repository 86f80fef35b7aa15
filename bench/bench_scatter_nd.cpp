// Scatter cases (tensor_scatter_nd_sub, float32, int64 indices) on the CPU and CUDA:
//  elements:   a 16M-element table, 4M random element updates (depth 1, slice 1);
//  rows:       a 64K x 256 table, 16K random row (slice) updates;
//  same_index: a 1M-element table, 1M updates all to element 0 (worst case for atomics).
// Each out of place (the op: a fresh output, so it includes the output's first touch) and
// `_in_place` (what NumPy's subtract.at and PyTorch's index_put_(accumulate=True) do).
// Bytes: what the op must read and write: out of place the table read and the output written,
// in place the touched elements read and written; plus updates and indices read.
// Peers: bench/peers_cases/scatter_nd.py (same names, sizes and data). On CUDA also
// `_plain_kernel`: the element case's indices and updates through a plain non-atomic
// random-scatter kernel (bench/baseline_scatter.cu), the yardstick of the in-place op.
// Every other combine of the op table: its elements case out of place (a fresh output per call,
// so repeated calls do not drive mul's table into subnormals), registered by a loop over
// TENSORBUF_SCATTER_COMBINES (same data and bytes as the sub case).
#include <string_view>

#include "bench_support.hpp"
#include "tensorbuf/op_table.hpp"

#if defined(TENSORBUF_WITH_CUDA)
#include "baseline_scatter.hpp"
#endif

namespace tensorbuf::bench {
namespace {

struct ScatterCase {
  std::int64_t table_rows;
  std::int64_t width;
  std::int64_t updates;
  bool same_index;
};

constexpr ScatterCase kElements{16 * kMiB, 1, 4 * kMiB, false};
constexpr ScatterCase kRows{64 * 1024, 256, 16 * 1024, false};
constexpr ScatterCase kSameIndex{kMiB, 1, kMiB, true};
constexpr std::uint64_t kTableSeed = 11;
constexpr std::uint64_t kIndexSeed = 12;
constexpr std::uint64_t kUpdateSeed = 13;

struct Inputs {
  TensorBuffer table;
  TensorBuffer indices;
  TensorBuffer updates;
};

Inputs make_inputs(const ScatterCase& c) {
  const std::vector<std::int64_t> index =
      c.same_index ? std::vector<std::int64_t>(static_cast<std::size_t>(c.updates), 0)
                   : random_ints(c.updates, 0, c.table_rows, kIndexSeed);
  return Inputs{make_buffer(random_floats(c.table_rows * c.width, -1.0, 1.0, kTableSeed),
                            Shape{c.table_rows, c.width}, DataType::kFloat32),
                make_index_buffer(index, Shape{c.updates, 1}, DataType::kInt64),
                make_buffer(random_floats(c.updates * c.width, -1.0, 1.0, kUpdateSeed),
                            Shape{c.updates, c.width}, DataType::kFloat32)};
}

double traffic_bytes(const ScatterCase& c, bool in_place) {
  return scatter_traffic_bytes(c.updates, c.width, c.table_rows, in_place, c.same_index);
}

void scatter_case(benchmark::State& state, const ScatterCase& c, bool cuda, bool in_place,
                  bool deterministic = false) {
  if (cuda && skip_without_cuda(state)) return;
  Inputs in = make_inputs(c);
  const Device device = cuda ? Device::cuda(0) : Device::cpu();
  const ScatterOptions options{.device = device, .deterministic = deterministic};
  if (cuda) {
    for (const TensorBuffer* b : {&in.table, &in.indices, &in.updates}) b->sync_to(device);
  }
  {  // warm-up: thread pool, caching allocators
    TensorBuffer warm = tensor_scatter_nd_sub(in.table, in.indices, in.updates, options);
    if (cuda) cuda_synchronize();
  }
  for (auto _ : state) {
    if (in_place) {
      tensor_scatter_nd_sub_in_place(in.table, in.indices, in.updates, options);
    } else {
      TensorBuffer out = tensor_scatter_nd_sub(in.table, in.indices, in.updates, options);
      benchmark::DoNotOptimize(&out);
    }
    if (cuda) cuda_synchronize();
    benchmark::ClobberMemory();
  }
  const double bytes = traffic_bytes(c, in_place);
  report(state, bytes, cuda ? cuda_d2d_limit_gbps(bytes) : cpu_memcpy_limit_gbps(bytes));
}

#define TENSORBUF_SCATTER_CASES(tag, kase, name)                                            \
  void BM_##tag##_cpu(benchmark::State& s) { scatter_case(s, kase, false, false); }         \
  void BM_##tag##_cpu_in_place(benchmark::State& s) { scatter_case(s, kase, false, true); } \
  void BM_##tag##_cuda(benchmark::State& s) { scatter_case(s, kase, true, false); }         \
  void BM_##tag##_cuda_in_place(benchmark::State& s) { scatter_case(s, kase, true, true); } \
  void BM_##tag##_cuda_deterministic(benchmark::State& s) {                                 \
    scatter_case(s, kase, true, true, true);                                                \
  }                                                                                         \
  TENSORBUF_BENCHMARK(BM_##tag##_cpu, name, "cpu");                                         \
  TENSORBUF_BENCHMARK(BM_##tag##_cpu_in_place, name "_in_place", "cpu");                    \
  TENSORBUF_BENCHMARK(BM_##tag##_cuda, name, "cuda");                                       \
  TENSORBUF_BENCHMARK(BM_##tag##_cuda_in_place, name "_in_place", "cuda");                  \
  TENSORBUF_BENCHMARK(BM_##tag##_cuda_deterministic, name "_in_place_deterministic", "cuda")

TENSORBUF_SCATTER_CASES(scatter_nd_elements, kElements, "scatter_nd_sub_f32_elements");
TENSORBUF_SCATTER_CASES(scatter_nd_rows, kRows, "scatter_nd_sub_f32_rows");
TENSORBUF_SCATTER_CASES(scatter_nd_same_index, kSameIndex, "scatter_nd_sub_f32_same_index");

#undef TENSORBUF_SCATTER_CASES

using ScatterOutOfPlace = TensorBuffer (*)(const TensorBuffer&, const TensorBuffer&,
                                           const TensorBuffer&, const ScatterOptions&);

void combine_case(benchmark::State& state, ScatterOutOfPlace op, bool cuda) {
  if (cuda && skip_without_cuda(state)) return;
  Inputs in = make_inputs(kElements);
  const Device device = cuda ? Device::cuda(0) : Device::cpu();
  place_on(device, in.table, in.indices, in.updates);
  const ScatterOptions options{.device = device};
  {  // warm-up: thread pool, caching allocators
    TensorBuffer warm = op(in.table, in.indices, in.updates, options);
    if (cuda) cuda_synchronize();
  }
  time_calls(state, device, traffic_bytes(kElements, false), [&] {
    TensorBuffer out = op(in.table, in.indices, in.updates, options);
    benchmark::DoNotOptimize(&out);
  });
}

// "scatter_nd_<combine>_f32_elements" on both devices, for each combine but sub.
const bool combines_registered = [] {
  struct Combine {
    std::string_view name;
    ScatterOutOfPlace out_of_place;
  };
  const Combine combines[] = {
#define TENSORBUF_BENCH_COMBINE(name, op, what) {#name, &tensor_scatter_nd_##name},
      TENSORBUF_SCATTER_COMBINES(TENSORBUF_BENCH_COMBINE)
#undef TENSORBUF_BENCH_COMBINE
  };
  for (const Combine& c : combines) {
    if (c.name == "sub") continue;  // its cases are above
    for (const bool cuda : {false, true}) {
      const std::string name =
          "scatter_nd_" + std::string(c.name) + "_f32_elements/" + (cuda ? "cuda" : "cpu");
      benchmark::RegisterBenchmark(
          name.c_str(),
          [op = c.out_of_place, cuda](benchmark::State& s) { combine_case(s, op, cuda); })
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
  return true;
}();

#if defined(TENSORBUF_WITH_CUDA)
// The yardstick: same data as the in-place element case, plain kernel, same bytes.
void BM_scatter_elements_plain_kernel(benchmark::State& state) {
  if (skip_without_cuda(state)) return;
  Inputs in = make_inputs(kElements);
  float* table = in.table.mutable_device<float>();
  const auto* index = in.indices.device<std::int64_t>();
  const float* updates = in.updates.device<float>();
  void* stream = core::device_memory()->default_stream(0);
  plain_scatter_sub_f32(table, index, updates, kElements.updates, stream);
  cuda_synchronize();
  for (auto _ : state) {
    plain_scatter_sub_f32(table, index, updates, kElements.updates, stream);
    cuda_synchronize();
  }
  const double bytes = traffic_bytes(kElements, true);
  report(state, bytes, cuda_d2d_limit_gbps(bytes));
}
TENSORBUF_BENCHMARK(BM_scatter_elements_plain_kernel, "scatter_nd_sub_f32_elements_plain_kernel",
                    "cuda");
#endif
}  // namespace
}  // namespace tensorbuf::bench
