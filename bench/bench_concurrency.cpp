// Concurrent callers (issue 24, item 5): an inference server runs requests on several threads.
// Each caller thread has its own inputs and runs call pairs: one boolean_mask_update (out of
// place, a [2^16] f32 tensor, a random mask of density 0.5) and one
// tensor_scatter_nd_add_in_place of 2^14 random element rows into a [2^16] f32 table, on the
// CPU. Cases `concurrent_pairs_<n>_callers` run 1, 2, 4 and 8 caller threads; the counter
// `pairs_per_second` is the throughput of all callers together (the target: with several
// callers at least the single caller's). Bytes: the two ops' traffic per pair (the mask update's
// out-of-place bytes plus the scatter's touched elements, updates and indices), so `x limit`
// compares with the same-run memcpy like the other cases.
#include <string>

#include "bench_support.hpp"

namespace tensorbuf::bench {
namespace {

constexpr std::int64_t kElements = std::int64_t{1} << 16;
constexpr std::int64_t kRows = std::int64_t{1} << 14;

struct Request {
  TensorBuffer tensor, mask, updates, table, indices, scatter_updates;
  double bytes = 0;
};

Request make_request(std::uint64_t seed) {
  const std::vector<std::uint8_t> mask_bytes = random_bools(kElements, 0.5, seed + 2);
  std::int64_t n = 0;
  for (const std::uint8_t b : mask_bytes) n += b;
  Request r{
      make_buffer(random_floats(kElements, -1.0, 1.0, seed + 1), Shape{kElements},
                  DataType::kFloat32),
      TensorBuffer::create_uninitialized(Shape{kElements}, DataType::kBool),
      make_buffer(random_floats(n, 2.0, 3.0, seed + 3), Shape{n}, DataType::kFloat32),
      make_buffer(random_floats(kElements, -1.0, 1.0, seed + 4), Shape{kElements},
                  DataType::kFloat32),
      make_index_buffer(random_ints(kRows, 0, kElements, seed + 5), Shape{kRows, 1},
                        DataType::kInt64),
      make_buffer(random_floats(kRows, -1.0, 1.0, seed + 6), Shape{kRows}, DataType::kFloat32)};
  std::memcpy(r.mask.overwrite_host_bytes(), mask_bytes.data(), mask_bytes.size());
  r.bytes = 2.0 * 4 * kElements + kElements + 4.0 * static_cast<double>(n) +  // mask update
            2.0 * 4 * kRows + 4.0 * kRows + 8.0 * kRows;                      // scatter
  return r;
}

void concurrent_pairs(benchmark::State& state) {
  Request r = make_request(100 + 10 * static_cast<std::uint64_t>(state.thread_index()));
  const BooleanMaskUpdateOptions mask_options{.device = Device::cpu()};
  const ScatterOptions scatter_options{.device = Device::cpu()};
  for (auto _ : state) {
    TensorBuffer out = boolean_mask_update(r.tensor, r.mask, r.updates, mask_options);
    benchmark::DoNotOptimize(&out);
    tensor_scatter_nd_add_in_place(r.table, r.indices, r.scatter_updates, scatter_options);
    benchmark::ClobberMemory();
  }
  // Summed over the caller threads by Google Benchmark: all callers' pairs per second.
  state.counters["pairs_per_second"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  if (state.thread_index() == 0) {
    report(state, r.bytes, cpu_memcpy_limit_gbps(r.bytes));  // the time is per pair of all callers
  }
}

TENSORBUF_BENCHMARK(concurrent_pairs, "concurrent_pairs_1_caller", "cpu")->Threads(1);
TENSORBUF_BENCHMARK(concurrent_pairs, "concurrent_pairs_2_callers", "cpu")->Threads(2);
TENSORBUF_BENCHMARK(concurrent_pairs, "concurrent_pairs_4_callers", "cpu")->Threads(4);
TENSORBUF_BENCHMARK(concurrent_pairs, "concurrent_pairs_8_callers", "cpu")->Threads(8);

}  // namespace
}  // namespace tensorbuf::bench
