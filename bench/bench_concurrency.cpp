// Concurrent callers: an inference server runs requests on several threads.
// Each caller thread has its own inputs and runs call pairs: one boolean_mask_update (out of
// place, an [n] f32 tensor, a random mask of density 0.5) and one
// tensor_scatter_nd_add_in_place of n / 4 random element rows into an [n] f32 table, on the
// CPU. Cases `concurrent_pairs_<n>_<c>_callers` run c = 1, 2, 4 and 8 caller threads at the
// sweep's sizes n = 2^10 .. 2^20; the counter `pairs_per_second` is the throughput of all
// callers together (the target: with several callers at least the single caller's at every
// size). Bytes: the two ops' traffic per pair (the mask update's out-of-place bytes plus the
// scatter's touched elements, updates and indices), so `x limit` compares with the same-run
// memcpy like the other cases.
#include <string>

#include "bench_support.hpp"

namespace tensorbuf::bench {
namespace {

struct Request {
  TensorBuffer tensor, mask, updates, table, indices, scatter_updates;
  double bytes = 0;
};

Request make_request(std::int64_t elements, std::uint64_t seed) {
  const std::int64_t rows = elements / 4;
  const std::vector<std::uint8_t> mask_bytes = random_bools(elements, 0.5, seed + 2);
  std::int64_t n = 0;
  for (const std::uint8_t b : mask_bytes) n += b;
  Request r{
      make_buffer(random_floats(elements, -1.0, 1.0, seed + 1), Shape{elements},
                  DataType::kFloat32),
      TensorBuffer::create_uninitialized(Shape{elements}, DataType::kBool),
      make_buffer(random_floats(n, 2.0, 3.0, seed + 3), Shape{n}, DataType::kFloat32),
      make_buffer(random_floats(elements, -1.0, 1.0, seed + 4), Shape{elements},
                  DataType::kFloat32),
      make_index_buffer(random_ints(rows, 0, elements, seed + 5), Shape{rows, 1},
                        DataType::kInt64),
      make_buffer(random_floats(rows, -1.0, 1.0, seed + 6), Shape{rows}, DataType::kFloat32)};
  std::memcpy(r.mask.overwrite_host_bytes(), mask_bytes.data(), mask_bytes.size());
  const auto e = static_cast<double>(elements), u = static_cast<double>(rows);
  r.bytes = 2.0 * 4 * e + e + 4.0 * static_cast<double>(n) +  // mask update
            2.0 * 4 * u + 4.0 * u + 8.0 * u;                  // scatter
  return r;
}

void concurrent_pairs(benchmark::State& state, std::int64_t elements) {
  Request r = make_request(elements, 100 + 10 * static_cast<std::uint64_t>(state.thread_index()));
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

// One case per (size, callers): the CLI's table and JSON name each row by its case.
const bool registered = [] {
  for (int log2 = 10; log2 <= 20; log2 += 2) {
    const std::int64_t elements = std::int64_t{1} << log2;
    for (const int callers : {1, 2, 4, 8}) {
      const std::string name = "concurrent_pairs_" + std::to_string(elements) + "_" +
                               std::to_string(callers) + (callers == 1 ? "_caller" : "_callers");
      benchmark::RegisterBenchmark(
          (name + "/cpu").c_str(),
          [elements](benchmark::State& state) { concurrent_pairs(state, elements); })
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond)
          ->Threads(callers);
    }
  }
  return true;
}();

}  // namespace
}  // namespace tensorbuf::bench
