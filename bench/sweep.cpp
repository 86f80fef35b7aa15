// The sweep's timing loop (sweep.hpp): per (form, size), a warm-up, then op and yardstick calls
// alternately, each timed alone with steady_clock, until the time per point is spent (at least
// min_samples calls each, at most max_samples). On CUDA each call is timed to the end of its
// GPU work (a synchronize of the library's stream after it), and the yardstick is a
// device-to-device copy.
#include "sweep.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <regex>

#if defined(__unix__)
#include <sys/resource.h>
#endif

#include "bench_support.hpp"
#include "sweep_forms.hpp"

namespace tensorbuf::bench {
namespace {

// Nearest-rank quantile of sorted values.
double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0.0;
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

// Minor page faults of this process so far (0 where getrusage is missing).
long minor_faults() {
#if defined(__unix__)
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
#else
  return 0;
#endif
}

double seconds_of(const std::function<void()>& call, Device device) {
  const auto t0 = std::chrono::steady_clock::now();
  call();
  if (device.is_cuda()) synchronize(device);
  const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
  return dt.count();
}

SweepPoint measure(const SweepForm& form, std::int64_t size, const SweepOptions& options) {
  const Device device = options.device;
  const SweepCalls calls = form.make(size, device);
  // Warm-up: first touch of outputs, caches, the pool's threads (on CUDA: kernels loaded, the
  // stream-ordered pool grown).
  for (int i = 0; i < 3; ++i) {
    seconds_of(calls.op, device);
    seconds_of(calls.yardstick, device);
  }
  std::vector<double> op;
  std::vector<double> ref;
  double spent = 0;
  // Faults counted over the whole loop (the yardstick allocates nothing): a getrusage call
  // beside every timed call would put a system call, and what it evicts, before each one.
  const long faults_before = minor_faults();
  while (static_cast<std::int64_t>(op.size()) < options.max_samples &&
         (static_cast<std::int64_t>(op.size()) < options.min_samples ||
          spent < options.seconds_per_point)) {
    op.push_back(seconds_of(calls.op, device));
    ref.push_back(seconds_of(calls.yardstick, device));
    spent += std::max(op.back(), ref.back());
  }
  const long faults = minor_faults() - faults_before;
  std::sort(op.begin(), op.end());
  std::sort(ref.begin(), ref.end());
  SweepPoint point;
  point.form = form.name;
  point.device = device.to_string();
  point.yardstick = device.is_cuda() ? "device copy" : form.yardstick;
  point.unit = form.unit;
  point.size = size;
  point.samples = static_cast<std::int64_t>(op.size());
  point.op_p50 = quantile(op, 0.5);
  point.op_p99 = quantile(op, 0.99);
  point.ref_p50 = quantile(ref, 0.5);
  point.ref_p99 = quantile(ref, 0.99);
  point.op_faults = static_cast<double>(faults) / static_cast<double>(op.size());
  return point;
}

}  // namespace

std::function<void()> copy_yardstick(double traffic_bytes, Device device) {
  if (!device.is_cuda()) return memcpy_yardstick(traffic_bytes);
  const auto buffers = std::make_shared<const DeviceCopy>(
      static_cast<std::size_t>(std::max(64.0, traffic_bytes / 2)), device.index);
  return [buffers] { buffers->copy(); };
}

namespace {

struct SweepArea {
  std::string_view leading_op;
  std::vector<SweepForm> (*forms)();
};

std::vector<SweepArea>& sweep_areas() {
  static std::vector<SweepArea> areas;  // first used at static initialisation
  return areas;
}

}  // namespace

SweepAreaRegistration::SweepAreaRegistration(std::string_view leading_op,
                                             std::vector<SweepForm> (*forms)()) {
  sweep_areas().push_back({leading_op, forms});
}

std::vector<SweepForm> sweep_forms() {
  std::vector<SweepArea> areas = sweep_areas();
  std::stable_sort(areas.begin(), areas.end(), [](const SweepArea& a, const SweepArea& b) {
    return op_order(a.leading_op) < op_order(b.leading_op);
  });
  std::vector<SweepForm> forms;
  for (const SweepArea& area : areas) {
    std::vector<SweepForm> more = area.forms();
    forms.insert(forms.end(), more.begin(), more.end());
  }
  return forms;
}

std::vector<SweepPoint> run_sweep(const SweepOptions& options,
                                  const std::function<void(const SweepPoint&)>& progress) {
  const std::regex filter(options.filter.empty() ? "." : options.filter);
  std::vector<SweepPoint> points;
  for (const SweepForm& form : sweep_forms()) {
    if (!std::regex_search(form.name, filter)) continue;
    for (int log2 = options.min_log2; log2 <= options.max_log2; log2 += options.step_log2) {
      const std::int64_t size = std::int64_t{1} << log2;
      if (size > form.max_size) break;
      points.push_back(measure(form, size, options));
      if (progress) progress(points.back());
    }
  }
  return points;
}

}  // namespace tensorbuf::bench
