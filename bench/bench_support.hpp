// Shared helpers of the tensorbuf benchmarks: the case-naming convention, reporting bytes and
// the same-run limit (memcpy on the CPU, device-to-device copy on CUDA), and random data that
// bench/peers.py reproduces bit for bit in NumPy.
//
// HOW TO ADD BENCHMARK CASES (the convention `tensorbuf bench` relies on)
//
//  1. Put the cases of an area in bench/bench_<area>.cpp and list the file in bench/<area>.cmake:
//         tensorbuf_add_bench_cases(bench_<area>.cpp)
//     The files are compiled into the OBJECT library `tensorbuf_bench_cases`, linked into both
//     the `tensorbuf_bench` executable (plain Google Benchmark, all its flags) and the
//     `tensorbuf` command-line tool (`tensorbuf bench`, which prints the table and the JSON).
//     An OBJECT library keeps the self-registering BENCHMARK statics that a static library
//     would drop.
//  2. Register every case with TENSORBUF_BENCHMARK(function, "case_name", "cpu" | "cuda"). Its
//     Google Benchmark name is "case_name/device" (plus whatever Google Benchmark appends, e.g.
//     "/real_time"; `tensorbuf bench` reads the first two components). `case_name` is
//     lower_snake_case, unique, and the same string as the peers' case in
//     bench/peers_cases/<area>.py, e.g. "load_array_f32_to_u8", "scatter_nd_add_f32_rows".
//     The same case name on "cpu" and "cuda" is the same work on each device.
//  3. Sizes go well beyond the caches: at least 64 MiB of traffic per case on the CPU. Keep the
//     sizes in quick mode (`tensorbuf bench --quick`, env TENSORBUF_BENCH_QUICK=1): quick mode
//     only runs fewer repetitions; a case may shrink its setup work with quick_mode().
//  4. Build the inputs before the loop (random_floats / random_ints / random_bools below), time
//     only the op inside `for (auto _ : state)`, and after the loop call
//         tensorbuf::bench::report(state, bytes_per_iteration, limit_gbps);
//     with bytes_per_iteration = bytes the op must read + bytes it must write (the minimum
//     traffic, not what a particular implementation happens to move; a host<->device transfer
//     counts the bytes transferred once), and limit_gbps =
//     cpu_memcpy_limit_gbps(bytes_per_iteration) on the CPU or
//     cuda_d2d_limit_gbps(bytes_per_iteration) on CUDA. ratio_to_limit = gbps / limit_gbps.
//  5. CUDA cases start with `if (skip_without_cuda(state)) return;` (the table shows the
//     reason), and end each iteration with cuda_synchronize() so the time covers the work.
//  6. Add the peers (NumPy, PyTorch, ...) for the same case name, size and data in
//     bench/peers_cases/<area>.py (see bench/peers.py).
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/device_memory.hpp"
#include "core/parallel.hpp"
#include "tensorbuf/tensorbuf.hpp"

/// Registers `function` as the case "case_name/device" with the settings every case shares
/// (real time, since the work is multithreaded or on the GPU; milliseconds).
#define TENSORBUF_BENCHMARK(function, case_name, device) \
  BENCHMARK(function)                                    \
      ->Name(std::string(case_name) + "/" + (device))    \
      ->UseRealTime()                                    \
      ->Unit(benchmark::kMillisecond)

namespace tensorbuf::bench {

inline constexpr std::int64_t kMiB = std::int64_t{1} << 20;
inline constexpr std::int64_t kGiB = std::int64_t{1} << 30;

/// True when TENSORBUF_BENCH_QUICK=1 (`tensorbuf bench --quick` sets it).
inline bool quick_mode() {
  const char* env = std::getenv("TENSORBUF_BENCH_QUICK");
  return env != nullptr && env[0] == '1';
}

// ---------------------------------------------------------------------------------------------
// Random data. Element i of stream `seed` is a pure function of (seed, i) (SplitMix64 of
// (seed << 32) + i), so it is filled in parallel and bench/peers_cases/__init__.py makes the
// very same values in NumPy.

inline std::uint64_t splitmix64(std::uint64_t x) {
  std::uint64_t z = x + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

inline std::uint64_t random_bits(std::uint64_t seed, std::int64_t i) {
  return splitmix64((seed << 32) + static_cast<std::uint64_t>(i));
}

/// n floats uniform in [lo, hi): lo + (hi - lo) * (bits >> 40) * 2^-24, computed in double.
inline std::vector<float> random_floats(std::int64_t n, double lo, double hi, std::uint64_t seed) {
  std::vector<float> out(static_cast<std::size_t>(n));
  core::parallel_for(n, 1 << 16, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      const double u = static_cast<double>(random_bits(seed, i) >> 40) * 0x1p-24;
      out[static_cast<std::size_t>(i)] = static_cast<float>(lo + (hi - lo) * u);
    }
  });
  return out;
}

/// n integers uniform in [lo, hi): lo + bits % (hi - lo). Requires lo < hi.
inline std::vector<std::int64_t> random_ints(std::int64_t n, std::int64_t lo, std::int64_t hi,
                                             std::uint64_t seed) {
  std::vector<std::int64_t> out(static_cast<std::size_t>(n));
  const auto range = static_cast<std::uint64_t>(hi - lo);
  core::parallel_for(n, 1 << 16, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      out[static_cast<std::size_t>(i)] =
          lo + static_cast<std::int64_t>(random_bits(seed, i) % range);
    }
  });
  return out;
}

/// n bytes, 1 with probability p_true ((bits >> 40) * 2^-24 < p_true), else 0.
inline std::vector<std::uint8_t> random_bools(std::int64_t n, double p_true, std::uint64_t seed) {
  std::vector<std::uint8_t> out(static_cast<std::size_t>(n));
  core::parallel_for(n, 1 << 16, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      const double u = static_cast<double>(random_bits(seed, i) >> 40) * 0x1p-24;
      out[static_cast<std::size_t>(i)] = u < p_true ? 1 : 0;
    }
  });
  return out;
}

/// A TensorBuffer of `type` holding `values` converted (load_array rules).
inline TensorBuffer make_buffer(const std::vector<float>& values, const Shape& shape,
                                DataType type) {
  TensorBuffer buffer = TensorBuffer::create_dynamic(type);
  buffer.load_array(std::span<const float>(values), shape);
  return buffer;
}

/// An int32 or int64 TensorBuffer holding `values` (e.g. from random_ints).
inline TensorBuffer make_index_buffer(const std::vector<std::int64_t>& values, const Shape& shape,
                                      DataType type) {
  TensorBuffer buffer = TensorBuffer::create_uninitialized(shape, type);
  if (type == DataType::kInt64) {
    std::memcpy(buffer.overwrite_host_bytes(), values.data(), values.size() * sizeof(std::int64_t));
  } else {
    auto* out = static_cast<std::int32_t*>(buffer.overwrite_host_bytes());
    for (std::size_t i = 0; i < values.size(); ++i) out[i] = static_cast<std::int32_t>(values[i]);
  }
  return buffer;
}

// ---------------------------------------------------------------------------------------------
// Limits, measured in the same process with the same thread count as the ops.

namespace detail {

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

template <class F>
double cached(std::map<std::int64_t, double>& cache, std::int64_t key, F&& measure) {
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  const double value = measure();
  cache.emplace(key, value);
  return value;
}

}  // namespace detail

/// Traffic rate (bytes read + bytes written, per second, in GB/s = 1e9 B/s) of a memcpy of
/// 64 MiB (well beyond the caches, so the rate no longer depends on the size; the argument is
/// kept for symmetry with cuda_d2d_limit_gbps), split over core::cpu_thread_count() threads by
/// the library's own thread pool: the ceiling a memory-bound CPU op can reach. Median of
/// several copies, measured in this process: once in quick mode, else again when the last
/// measurement is older than 2 s (in practice: once per case, right after its timed loop), so
/// that on a shared machine whose bandwidth drifts the ratio compares times taken together.
inline double cpu_memcpy_limit_gbps(double /*traffic_bytes*/) {
  static std::mutex mutex;
  static double cached_rate = 0.0;
  static std::chrono::steady_clock::time_point measured_at;
  std::lock_guard lock(mutex);
  const auto now = std::chrono::steady_clock::now();
  if (cached_rate > 0.0 && (quick_mode() || now - measured_at < std::chrono::seconds(2))) {
    return cached_rate;
  }
  constexpr std::int64_t copy_bytes = 64 * kMiB;
  std::unique_ptr<char[]> src(new char[static_cast<std::size_t>(copy_bytes)]);
  std::unique_ptr<char[]> dst(new char[static_cast<std::size_t>(copy_bytes)]);
  auto copy = [&] {
    core::parallel_for(copy_bytes, 1 << 20, [&](std::int64_t begin, std::int64_t end) {
      std::memcpy(dst.get() + begin, src.get() + begin, static_cast<std::size_t>(end - begin));
    });
  };
  core::parallel_for(copy_bytes, 1 << 20, [&](std::int64_t begin, std::int64_t end) {
    std::memset(src.get() + begin, 1, static_cast<std::size_t>(end - begin));
    std::memset(dst.get() + begin, 0, static_cast<std::size_t>(end - begin));
  });
  copy();  // warm up: page tables, pool threads
  std::vector<double> rates;
  for (int r = 0; r < (quick_mode() ? 5 : 11); ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    copy();
    const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
    rates.push_back(2.0 * static_cast<double>(copy_bytes) / dt.count() / 1e9);
    benchmark::DoNotOptimize(dst.get());
  }
  cached_rate = detail::median(rates);
  measured_at = std::chrono::steady_clock::now();
  return cached_rate;
}

/// Reason CUDA cannot be used, or "" when it can.
inline std::string cuda_unusable_reason() {
  if (cuda_available() && core::device_memory() != nullptr) return "";
  return cuda_availability_reason();
}

/// Skips the case (shown as skipped with the reason) when CUDA is unusable; true if skipped.
inline bool skip_without_cuda(benchmark::State& state) {
  const std::string reason = cuda_unusable_reason();
  if (reason.empty()) return false;
  state.SkipWithError(("CUDA unavailable: " + reason).c_str());
  return true;
}

/// Blocks until the work enqueued so far on the library's stream of `device` finished.
inline void cuda_synchronize(int device = 0) {
  if (cuda_unusable_reason().empty()) synchronize(Device::cuda(device));
}

/// Two device buffers of `bytes` on `device` (the source filled with 1s) and one
/// device-to-device copy between them, enqueued on the library's stream by copy(); freed in
/// stream order. Requires usable CUDA.
class DeviceCopy {
 public:
  DeviceCopy(std::size_t bytes, int device)
      : memory_(*core::device_memory()),
        stream_(memory_.default_stream(device)),
        bytes_(bytes),
        device_(device),
        src_(memory_.allocate_device(bytes, device, stream_)),
        dst_(memory_.allocate_device(bytes, device, stream_)) {
    memory_.memset_device(src_, 1, bytes, device, stream_);
  }
  ~DeviceCopy() {
    memory_.free_device(dst_, bytes_, device_, stream_);
    memory_.free_device(src_, bytes_, device_, stream_);
  }
  DeviceCopy(const DeviceCopy&) = delete;
  DeviceCopy& operator=(const DeviceCopy&) = delete;

  void copy() const { memory_.copy_device_to_device(dst_, src_, bytes_, device_, stream_); }

 private:
  core::DeviceMemory& memory_;
  core::StreamHandle stream_;
  std::size_t bytes_;
  int device_;
  void* src_;
  void* dst_;
};

/// Traffic rate (2 x copied bytes per second, GB/s) of a device-to-device copy of
/// traffic_bytes / 2 bytes (at least 32 MiB) on `device`: the ceiling of a memory-bound CUDA
/// op. 0 when CUDA is unusable.
inline double cuda_d2d_limit_gbps(double traffic_bytes, int device = 0) {
  if (!cuda_unusable_reason().empty()) return 0.0;
  static std::map<std::int64_t, double> cache;
  const std::int64_t copy_bytes =
      std::max<std::int64_t>(32 * kMiB, static_cast<std::int64_t>(traffic_bytes / 2) & ~63ll);
  return detail::cached(cache, copy_bytes * 64 + device, [&] {
    const DeviceCopy buffers(static_cast<std::size_t>(copy_bytes), device);
    buffers.copy();
    cuda_synchronize(device);
    std::vector<double> rates;
    for (int r = 0; r < (quick_mode() ? 3 : 7); ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      buffers.copy();
      cuda_synchronize(device);
      const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
      rates.push_back(2.0 * static_cast<double>(copy_bytes) / dt.count() / 1e9);
    }
    return detail::median(rates);
  });
}

/// Bytes a scatter must read and write (bench_scatter_nd's cases and the sweep's): `updates`
/// rows of `width` f32 with int64 indices into `table_rows` rows. Out of place the table is read
/// and the output written; in place each touched element is read and written once (all rows on
/// one index: one row).
inline double scatter_traffic_bytes(std::int64_t updates, std::int64_t width,
                                    std::int64_t table_rows, bool in_place,
                                    bool same_index = false) {
  const double update_bytes = 4.0 * static_cast<double>(updates * width);
  const double index_bytes = 8.0 * static_cast<double>(updates);
  const double touched = same_index ? 4.0 * static_cast<double>(width) : update_bytes;
  const double table =
      in_place ? 2.0 * touched : 2.0 * 4.0 * static_cast<double>(table_rows * width);
  return table + update_bytes + index_bytes;
}

/// Reports a case: bytes processed (Google Benchmark's bytes_per_second), and the counters
/// `tensorbuf bench` reads: "bytes" (per iteration: read + written) and "limit_gbps" (the
/// same-run limit). Call once, after the timing loop.
inline void report(benchmark::State& state, double bytes_per_iteration, double limit_gbps) {
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes_per_iteration) *
                          static_cast<std::int64_t>(state.iterations()));
  state.counters["bytes"] = benchmark::Counter(bytes_per_iteration);
  state.counters["limit_gbps"] = benchmark::Counter(limit_gbps);
  state.counters["threads"] = benchmark::Counter(cpu_thread_count());
}

/// Makes each buffer valid on `device` (a no-op on the CPU, where the cases build them).
template <class... Buffers>
void place_on(Device device, const Buffers&... buffers) {
  if (device.is_cuda()) (buffers.sync_to(device), ...);
}

/// The timing loop of a case on `device`: `call` once per iteration, timed to the end of its
/// device work, then report() against the same-run limit (memcpy on the CPU, a device copy on
/// CUDA) of `bytes` per call.
template <class Call>
void time_calls(benchmark::State& state, Device device, double bytes, Call&& call) {
  for (auto _ : state) {
    call();
    if (device.is_cuda()) cuda_synchronize(device.index);
  }
  report(state, bytes,
         device.is_cuda() ? cuda_d2d_limit_gbps(bytes) : cpu_memcpy_limit_gbps(bytes));
}

}  // namespace tensorbuf::bench
