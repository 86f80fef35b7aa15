// `tensorbuf bench`: the benchmark cases of bench/ (linked in from the OBJECT library
// tensorbuf_bench_cases, convention in bench/bench_support.hpp) run through Google Benchmark
// with a reporter that prints case, device, time, GB/s and the ratio to the same-run limit.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli.hpp"

#if defined(TENSORBUF_HAVE_BENCHMARK)
#include <benchmark/benchmark.h>
#endif

namespace tensorbuf::cli {
namespace {

constexpr const char* kBenchUsage =
    R"(usage: tensorbuf bench [--device cpu|cuda|all] [--quick] [--json FILE] [--filter REGEX]
       tensorbuf bench --sweep [--device cpu|cuda] [--quick] [--sizes MIN:MAX[:STEP]]
                       [--json FILE] [--filter REGEX]
       tensorbuf bench [--sweep] --list [--device cpu|cuda|all] [--filter REGEX]

Runs the benchmark suite (bench/bench_*.cpp) and prints, per case and device: the median time
per iteration, the traffic rate in GB/s (bytes read + written by the op, 1 GB = 1e9 bytes), the
limit measured in the same run (CPU: memcpy over the library's threads; CUDA: a device-to-device
copy) and the ratio to it. Where CUDA is not usable, one line says how many CUDA cases were
skipped and why (the --json file keeps one "skipped" entry per case).
  --device  which cases (default all)
  --quick   one repetition after a short warm-up, short minimum time (CI; under a minute)
  --json    also write the results as a JSON array: case, device, bytes, seconds (median),
            gbps, limit_gbps, ratio_to_limit, ...
  --filter  only the cases whose "case/device" name matches REGEX
  --sweep   instead of the cases: every op and form on one device (default cpu) at sizes
            2^MIN .. 2^MAX (default 10:26:2; --quick: 10:16 and 10 ms per size), each beside its
            yardstick (CPU: a serial loop or a memcpy of the same traffic; CUDA: a
            device-to-device copy of it); per call median and p99, a CUDA call timed to the end
            of its GPU work (bench/sweep.hpp)
  --sizes   the sweep's sizes, log2: MIN:MAX or MIN:MAX:STEP
  --list    print the names ("case/device"; with --sweep the form names) and run nothing
Threads: TENSORBUF_NUM_THREADS (default: all hardware threads).
)";

#if defined(TENSORBUF_HAVE_BENCHMARK)

struct Row {
  std::string name;
  std::string device;
  double bytes = 0;
  double seconds = 0;
  double gbps = 0;
  double limit_gbps = 0;
  double threads = 0;
  std::int64_t iterations = 0;
  std::string skipped;  // reason, when the case did not run
};

double counter(const benchmark::BenchmarkReporter::Run& run, const char* name) {
  auto it = run.counters.find(name);
  return it == run.counters.end() ? 0.0 : it->second.value;
}

// Collects one row per case: the median aggregate when there are repetitions, else the run.
class CollectingReporter : public benchmark::BenchmarkReporter {
 public:
  explicit CollectingReporter(bool use_median) : use_median_(use_median) {}

  bool ReportContext(const Context& context) override {
    std::cout << "tensorbuf " << kVersion << " (" << build_description() << "), "
              << context.cpu_info.num_cpus << " CPU(s) at "
              << context.cpu_info.cycles_per_second / 1e6 << " MHz\n";
    return true;
  }

  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      const std::string full = run.run_name.function_name;
      const std::size_t slash = full.find('/');
      Row row;
      row.name = full.substr(0, slash);
      row.device = slash == std::string::npos ? "?" : full.substr(slash + 1);
      row.device = row.device.substr(0, row.device.find('/'));
      if (run.error_occurred) {
        row.skipped = run.error_message;
        if (!seen(row)) rows_.push_back(row);
        continue;
      }
      const bool is_median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
      const bool is_single = run.run_type == Run::RT_Iteration && !use_median_;
      if (!is_median && !is_single) continue;
      row.seconds = run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit);
      row.bytes = counter(run, "bytes");
      row.limit_gbps = counter(run, "limit_gbps");
      row.threads = counter(run, "threads");
      row.iterations = run.iterations;
      row.gbps = row.seconds > 0 ? row.bytes / row.seconds / 1e9 : 0.0;
      rows_.push_back(row);
    }
  }

  const std::vector<Row>& rows() const { return rows_; }

 private:
  bool seen(const Row& row) const {
    for (const Row& r : rows_) {
      if (r.name == row.name && r.device == row.device) return true;
    }
    return false;
  }

  bool use_median_;
  std::vector<Row> rows_;
};

std::string fixed(double value, int digits) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << value;
  return out.str();
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// One line per (device, reason) for the cases that did not run -- e.g. all CUDA cases on a
// machine without a usable GPU -- instead of one line per case.
void print_skipped(const std::vector<Row>& rows) {
  struct Group {
    std::string device;
    std::string reason;
    std::vector<std::string> cases;
  };
  std::vector<Group> groups;
  for (const Row& r : rows) {
    if (r.skipped.empty()) continue;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
      return g.device == r.device && g.reason == r.skipped;
    });
    if (it == groups.end()) it = groups.insert(groups.end(), Group{r.device, r.skipped, {}});
    it->cases.push_back(r.name);
  }
  for (const Group& g : groups) {
    std::cout << g.device << ": ";
    if (g.cases.size() == 1) {
      std::cout << g.cases.front() << " skipped: ";
    } else {
      std::cout << g.cases.size() << " cases skipped: ";
    }
    std::cout << g.reason << "\n";
  }
}

void print_table(const std::vector<Row>& rows) {
  std::size_t width = 4;
  bool any_ran = false;
  for (const Row& r : rows) {
    if (!r.skipped.empty()) continue;
    width = std::max(width, r.name.size());
    any_ran = true;
  }
  if (any_ran) {
    std::cout << std::left << std::setw(static_cast<int>(width)) << "case"
              << "  " << std::setw(6) << "device" << std::right << std::setw(12) << "time (ms)"
              << std::setw(10) << "GB/s" << std::setw(12) << "limit GB/s" << std::setw(10)
              << "ratio"
              << "\n";
  }
  for (const Row& r : rows) {
    if (!r.skipped.empty()) continue;
    std::cout << std::left << std::setw(static_cast<int>(width)) << r.name << "  " << std::setw(6)
              << r.device << std::right;
    const std::string ratio = r.limit_gbps > 0 ? fixed(r.gbps / r.limit_gbps, 2) : "-";
    std::cout << std::setw(12) << fixed(r.seconds * 1e3, 3) << std::setw(10) << fixed(r.gbps, 2)
              << std::setw(12) << fixed(r.limit_gbps, 2) << std::setw(10) << ratio << "\n";
  }
  print_skipped(rows);
}

void write_json(const std::string& path, const std::vector<Row>& rows, bool quick) {
  std::ostringstream out;
  out << "[\n";
  bool first = true;
  for (const Row& r : rows) {
    if (!first) out << ",\n";
    first = false;
    out << "  {\"case\": " << json_string(r.name) << ", \"device\": " << json_string(r.device);
    if (!r.skipped.empty()) {
      out << ", \"skipped\": " << json_string(r.skipped) << "}";
      continue;
    }
    out << std::setprecision(9) << ", \"bytes\": " << r.bytes << ", \"seconds\": " << r.seconds
        << ", \"gbps\": " << r.gbps << ", \"limit_gbps\": " << r.limit_gbps
        << ", \"ratio_to_limit\": " << (r.limit_gbps > 0 ? r.gbps / r.limit_gbps : 0.0)
        << ", \"threads\": " << r.threads << ", \"iterations\": " << r.iterations
        << ", \"quick\": " << (quick ? "true" : "false")
        << ", \"tensorbuf\": " << json_string(std::string(kVersion))
        << ", \"build\": " << json_string(std::string(build_description())) << "}";
  }
  out << "\n]\n";
  std::ofstream file(path, std::ios::trunc);
  file << out.str();
  file.close();
  if (!file) throw InvalidArgumentError("cannot write '" + path + "'");
}

#endif  // TENSORBUF_HAVE_BENCHMARK

}  // namespace

std::string no_benchmarks_reason() {
#if defined(TENSORBUF_CLI_INSTALLED)
  return "benchmarks are not part of the installed tensorbuf (they measure with the library's "
         "internals): run `tensorbuf bench` of a build tree (TENSORBUF_BUILD_BENCH=ON), "
         "apps/tensorbuf there, or its bench/tensorbuf_bench";
#else
  return "benchmarks are not built into this tensorbuf (Google Benchmark was not found or "
         "TENSORBUF_BUILD_BENCH=OFF)";
#endif
}

int bench_command(const std::vector<std::string>& args) {
  const Args flags(args,
                   {{"device", true},
                    {"quick", false},
                    {"json", true},
                    {"filter", true},
                    {"sweep", false},
                    {"sizes", true},
                    {"list", false}},
                   "tensorbuf bench");
  if (flags.help()) {
    std::cout << kBenchUsage;
    return kExitOk;
  }
  if (flags.has("sweep")) {
    if (flags.has("list")) return bench_sweep_list(flags.optional("filter"));
    const std::string device = flags.optional("device").value_or("cpu");
    if (device != "cpu" && device != "cuda") {
      throw InvalidArgumentError("--sweep runs on one device: --device cpu or cuda, not '" +
                                 device + "'");
    }
    return bench_sweep(device == "cuda", flags.has("quick"), flags.optional("sizes"),
                       flags.optional("filter"), flags.optional("json"));
  }
  if (flags.has("sizes")) throw InvalidArgumentError("--sizes needs --sweep");
  const std::string device = flags.optional("device").value_or("all");
  if (device != "cpu" && device != "cuda" && device != "all") {
    throw InvalidArgumentError("--device must be cpu, cuda or all, not '" + device + "'");
  }
#if !defined(TENSORBUF_HAVE_BENCHMARK)
  throw UnavailableError(no_benchmarks_reason());
#else
  const bool quick = flags.has("quick");
  if (quick) ::setenv("TENSORBUF_BENCH_QUICK", "1", 1);
  std::string filter = device == "all" ? "." : "/" + device + "(/|$)";
  if (auto user = flags.optional("filter")) {
    filter = device == "all" ? *user : "(" + *user + ").*/" + device + "(/|$)";
  }
  if (flags.has("list")) {
    // Google Benchmark prints the registered names that match, one a line, and runs none.
    std::vector<std::string> list_args = {"tensorbuf-bench", "--benchmark_filter=" + filter,
                                          "--benchmark_list_tests=true"};
    std::vector<char*> list_argv;
    for (std::string& a : list_args) list_argv.push_back(a.data());
    int list_argc = static_cast<int>(list_argv.size());
    benchmark::Initialize(&list_argc, list_argv.data());
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return kExitOk;
  }
  const int repetitions = quick ? 1 : 5;
  std::vector<std::string> gb_args = {
      "tensorbuf-bench", "--benchmark_filter=" + filter,
      "--benchmark_repetitions=" + std::to_string(repetitions),
      std::string("--benchmark_min_time=") + (quick ? "0.05" : "0.5"),
      // Steady state: the first call of a case pays for first-touch page faults of fresh
      // outputs (the host cache then reuses them), which a warm-up keeps out of the timing.
      std::string("--benchmark_min_warmup_time=") + (quick ? "0.01" : "0.2")};
  std::vector<char*> argv;
  for (std::string& a : gb_args) argv.push_back(a.data());
  int argc = static_cast<int>(argv.size());
  benchmark::Initialize(&argc, argv.data());
  CollectingReporter reporter(repetitions > 1);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  print_table(reporter.rows());
  // The skipped CUDA cases already say why; this covers a filter that selected none.
  const bool cuda_skipped =
      std::any_of(reporter.rows().begin(), reporter.rows().end(),
                  [](const Row& r) { return r.device == "cuda" && !r.skipped.empty(); });
  if (device != "cpu" && !cuda_available() && !cuda_skipped) {
    std::cout << "CUDA: " << cuda_availability_reason() << "\n";
  }
  if (auto json = flags.optional("json")) write_json(*json, reporter.rows(), quick);
  return kExitOk;
#endif
}

}  // namespace tensorbuf::cli
