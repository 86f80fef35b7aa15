// `tensorbuf bench --sweep`: the size sweep of bench/sweep.hpp, printed as one line per
// (form, size) -- the op's and the yardstick's median and p99 per call, their ratio, and the
// op's p99 / p50 -- and optionally written as JSON (bench/sweep.py merges several processes'
// files into bench/RESULTS.md).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>

#include "cli.hpp"

#if defined(TENSORBUF_HAVE_BENCHMARK)
#include "sweep.hpp"
#endif

namespace tensorbuf::cli {
namespace {

#if defined(TENSORBUF_HAVE_BENCHMARK)
// printf into a string of whatever length the values need (a JSON point runs past 256 chars).
std::string line(const char* format, auto... values) {
  const int size = std::snprintf(nullptr, 0, format, values...);
  std::string text(static_cast<std::size_t>(std::max(size, 0)), '\0');
  std::snprintf(text.data(), text.size() + 1, format, values...);
  return text;
}

void print_point(const bench::SweepPoint& p) {
  std::cout << line("%-42s %9lld %10.2f %10.2f %10.2f %10.2f %8.2f %8.2f %7.1f\n", p.form.c_str(),
                    static_cast<long long>(p.size), p.op_p50 * 1e6, p.op_p99 * 1e6, p.ref_p50 * 1e6,
                    p.ref_p99 * 1e6, p.op_p50 / p.ref_p50, p.op_p99 / p.op_p50, p.op_faults)
            << std::flush;
}

void write_json(const std::string& path, const std::vector<bench::SweepPoint>& points) {
  std::ostringstream out;
  out << "[\n";
  for (std::size_t i = 0; i < points.size(); ++i) {
    const bench::SweepPoint& p = points[i];
    out << line(
               "  {\"form\": \"%s\", \"device\": \"%s\", \"yardstick\": \"%s\", "
               "\"unit\": \"%s\", \"size\": %lld, "
               "\"samples\": %lld, \"op_p50\": %.9g, \"op_p99\": %.9g, \"ref_p50\": %.9g, "
               "\"ref_p99\": %.9g, \"op_faults\": %.3g}",
               p.form.c_str(), p.device.c_str(), p.yardstick.c_str(), p.unit.c_str(),
               static_cast<long long>(p.size), static_cast<long long>(p.samples), p.op_p50,
               p.op_p99, p.ref_p50, p.ref_p99, p.op_faults)
        << (i + 1 < points.size() ? ",\n" : "\n");
  }
  out << "]\n";
  std::ofstream file(path, std::ios::trunc);
  file << out.str();
  file.close();
  if (!file) throw InvalidArgumentError("cannot write '" + path + "'");
}

#endif

// "MIN:MAX" or "MIN:MAX:STEP" in log2 of the size; parsed before anything else, so a usage
// error is exit 2 in a build without benchmarks too.
struct SweepSizes {
  int min = 0;
  int max = 0;
  int step = 2;
};

SweepSizes parse_sizes(const std::string& text) {
  SweepSizes sizes;
  const int read = std::sscanf(text.c_str(), "%d:%d:%d", &sizes.min, &sizes.max, &sizes.step);
  if (read < 2 || sizes.min < 0 || sizes.max > 30 || sizes.min > sizes.max || sizes.step < 1) {
    throw InvalidArgumentError("--sizes must be MIN:MAX[:STEP] in log2 of the size (0..30), not '" +
                               text + "'");
  }
  return sizes;
}

}  // namespace

int bench_sweep(bool cuda, bool quick, const std::optional<std::string>& sizes,
                const std::optional<std::string>& filter, const std::optional<std::string>& json) {
  const std::optional<SweepSizes> parsed =
      sizes ? std::optional<SweepSizes>(parse_sizes(*sizes)) : std::nullopt;
#if !defined(TENSORBUF_HAVE_BENCHMARK)
  (void)cuda, (void)quick, (void)parsed, (void)filter, (void)json;
  throw UnavailableError(no_benchmarks_reason());
#else
  if (cuda && !cuda_available()) {
    throw UnavailableError("--device cuda: " + cuda_availability_reason());
  }
  bench::SweepOptions options;
  if (cuda) options.device = Device::cuda();
  if (quick) {  // CI: inference sizes only, a short time per point
    options.max_log2 = 16;
    options.seconds_per_point = 0.01;
  }
  if (parsed) {
    options.min_log2 = parsed->min;
    options.max_log2 = parsed->max;
    options.step_log2 = parsed->step;
  }
  if (filter) options.filter = *filter;
  std::cout << "tensorbuf " << kVersion << " size sweep, "
            << (cuda ? options.device.to_string() + ", calls timed to the end of their GPU work"
                     : "cpu, " + std::to_string(cpu_thread_count()) + " thread(s)")
            << "; times per call in us; ratio = op p50 / yardstick p50\n"
            << line("%-42s %9s %10s %10s %10s %10s %8s %8s %7s\n", "form", "size", "op p50",
                    "op p99", "ref p50", "ref p99", "ratio", "p99/p50", "faults");
  const std::vector<bench::SweepPoint> points = bench::run_sweep(options, print_point);
  if (json) write_json(*json, points);
  return kExitOk;
#endif
}

int bench_sweep_list(const std::optional<std::string>& filter) {
#if !defined(TENSORBUF_HAVE_BENCHMARK)
  (void)filter;
  throw UnavailableError(no_benchmarks_reason());
#else
  const std::regex pattern(filter.value_or("."));
  for (const bench::SweepForm& form : bench::sweep_forms()) {
    if (std::regex_search(form.name, pattern)) std::cout << form.name << "\n";
  }
  return kExitOk;
#endif
}

}  // namespace tensorbuf::cli
