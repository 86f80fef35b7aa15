// The size sweep of `tensorbuf bench --sweep`: every op and form at sizes
// 2^10 .. 2^26, each call timed alone, beside its yardstick at the same size in the same run
// (a plain serial loop for the random-access ops, a memcpy of the same traffic for the
// streaming ones). Calls of the op and of the yardstick alternate, so a drift of a shared
// machine lands on both. On CUDA (`--device cuda`) the inputs live on the device, each call is
// timed to the end of its GPU work, and the yardstick of every form is a device-to-device copy
// of the same traffic. Public API only: the CLI includes this header.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tensorbuf/types.hpp"

namespace tensorbuf::bench {

/// What one size of a form runs: the op (one call) and its yardstick (one call).
struct SweepCalls {
  std::function<void()> op;
  std::function<void()> yardstick;
};

/// One op and form, e.g. "scatter_nd_add_f32_elements_in_place".
struct SweepForm {
  std::string name;
  std::string yardstick;  // on the CPU: "serial loop" or "memcpy"; on CUDA always "device copy"
  std::string unit;       // what the size counts: "updates", "elements", "strings"
  std::int64_t max_size;  // larger sizes are skipped (memory)
  // The calls at `size` on `device`, its inputs already there.
  std::function<SweepCalls(std::int64_t size, Device device)> make;
};

/// Every form of every op (bench/sweep_<area>.cpp).
std::vector<SweepForm> sweep_forms();

struct SweepOptions {
  int min_log2 = 10;
  int max_log2 = 26;
  int step_log2 = 2;
  double seconds_per_point = 0.1;  // per side, after the warm-up
  std::int64_t min_samples = 5;
  std::int64_t max_samples = 2000;
  std::string filter;  // ECMAScript regex over the form name; empty: all
  Device device = Device::cpu();
};

/// One (form, size): per-call seconds of the op and of the yardstick, median and p99.
struct SweepPoint {
  std::string form;
  std::string device;  // "cpu", "cuda:0"
  std::string yardstick;
  std::string unit;
  std::int64_t size = 0;
  std::int64_t samples = 0;
  double op_p50 = 0, op_p99 = 0;
  double ref_p50 = 0, ref_p99 = 0;
  double op_faults = 0;  // minor page faults per op call (getrusage over op and yardstick calls)
};

/// Runs the sweep; `progress` is called after each point.
std::vector<SweepPoint> run_sweep(const SweepOptions& options,
                                  const std::function<void(const SweepPoint&)>& progress);

}  // namespace tensorbuf::bench
