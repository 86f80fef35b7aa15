// A/B of boolean_mask's CPU tunings in one process: each round times every tuning in turn on
// the same data, each right after a 64 MiB memcpy (both threads, as bench_support.hpp's limit),
// so a drift of the shared machine lands on all of them. Prints each tuning's median time over
// the first's (paired by round) and its median ratio to the
// memcpy just before it (bytes: the mask + the selected rows read and written, as
// bench_boolean_mask).
//
//   AB_DENSITY=0.5 (the default) tensorbuf_ab_boolean_mask [rounds] [tuning ...]
//   tuning: never|auto|always[:prefetch_bytes], default "never:0 auto"
//   (prefetch_bytes -1 or left out: the backend's choice)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "cpu/boolean_mask_tuning.hpp"

namespace tb = tensorbuf;
namespace {

using Clock = std::chrono::steady_clock;

struct Case {
  const char* name;
  std::int64_t rows;
  std::int64_t inner;
};

tb::cpu::BooleanMaskTuning parse(const std::string& text) {
  tb::cpu::BooleanMaskTuning tuning;
  const std::string mode = text.substr(0, text.find(':'));
  tuning.streaming = mode == "never"    ? tb::cpu::MaskStreaming::kNever
                     : mode == "always" ? tb::cpu::MaskStreaming::kAlways
                                        : tb::cpu::MaskStreaming::kAuto;
  const auto colon = text.find(':');
  if (colon != std::string::npos) {
    tuning.prefetch_bytes = std::strtoll(text.c_str() + colon + 1, nullptr, 10);
  }
  return tuning;
}

double memcpy_gbps(char* dst, const char* src, std::int64_t bytes) {
  const auto t0 = Clock::now();
  tb::core::parallel_for(bytes, 1 << 20, [&](std::int64_t begin, std::int64_t end) {
    std::memcpy(dst + begin, src + begin, static_cast<std::size_t>(end - begin));
  });
  const std::chrono::duration<double> dt = Clock::now() - t0;
  return 2.0 * static_cast<double>(bytes) / dt.count() / 1e9;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
  std::vector<std::string> names;
  for (int a = 2; a < argc; ++a) names.emplace_back(argv[a]);
  if (names.empty()) names = {"never:0", "auto"};
  const char* density_text = std::getenv("AB_DENSITY");
  const double density = density_text != nullptr ? std::atof(density_text) : 0.5;
  std::printf("mask density %.2f\n", density);
  const Case cases[] = {{"[2^26] f32", std::int64_t{1} << 26, 1},
                        {"[4M, 8] f32", std::int64_t{4} << 20, 8}};
  constexpr std::int64_t kCopy = std::int64_t{64} << 20;
  std::unique_ptr<char[]> src(new char[kCopy]);
  std::unique_ptr<char[]> dst(new char[kCopy]);
  std::memset(src.get(), 1, kCopy);
  std::memset(dst.get(), 0, kCopy);
  for (const Case& c : cases) {
    const auto mask_bytes = tb::bench::random_bools(c.rows, density, 12);
    std::int64_t n = 0;
    for (std::uint8_t b : mask_bytes) n += b;
    tb::TensorBuffer tensor = tb::bench::make_buffer(
        tb::bench::random_floats(c.rows * c.inner, -1.0, 1.0, 11),
        c.inner == 1 ? tb::Shape{c.rows} : tb::Shape{c.rows, c.inner}, tb::DataType::kFloat32);
    tb::TensorBuffer mask =
        tb::TensorBuffer::create_uninitialized(tb::Shape{c.rows}, tb::DataType::kBool);
    std::memcpy(mask.overwrite_host_bytes(), mask_bytes.data(), mask_bytes.size());
    const double bytes = static_cast<double>(c.rows) + 8.0 * static_cast<double>(n * c.inner);
    std::vector<std::vector<double>> ratios(names.size());
    std::vector<std::vector<double>> times(names.size());
    std::vector<double> limits;
    // Every tuning must give the same bytes.
    std::vector<std::uint8_t> expected;
    for (std::size_t v = 0; v < names.size(); ++v) {
      tb::cpu::set_boolean_mask_tuning(parse(names[v]));
      tb::TensorBuffer out = tb::boolean_mask(tensor, mask);
      const auto* p = static_cast<const std::uint8_t*>(out.host_bytes());
      std::vector<std::uint8_t> got(p, p + out.size_bytes());
      if (v == 0) expected = got;
      if (got != expected) {
        std::fprintf(stderr, "%s: tuning %s differs from %s\n", c.name, names[v].c_str(),
                     names[0].c_str());
        return 1;
      }
    }
    for (int r = 0; r < rounds; ++r) {
      for (std::size_t v = 0; v < names.size(); ++v) {
        std::vector<double> copies;
        for (int k = 0; k < 3; ++k) copies.push_back(memcpy_gbps(dst.get(), src.get(), kCopy));
        const double limit = median(copies);
        limits.push_back(limit);
        tb::cpu::set_boolean_mask_tuning(parse(names[v]));
        std::vector<double> t;
        for (int k = 0; k < 7; ++k) {
          const auto t0 = Clock::now();
          tb::TensorBuffer out = tb::boolean_mask(tensor, mask);
          const std::chrono::duration<double> dt = Clock::now() - t0;
          t.push_back(dt.count());
        }
        times[v].push_back(median(t) * 1e3);
        ratios[v].push_back(bytes / median(t) / 1e9 / limit);
      }
    }
    // The count pass alone: the into form with room for no row.
    tb::TensorBuffer none = tb::TensorBuffer::create_uninitialized(
        c.inner == 1 ? tb::Shape{0} : tb::Shape{0, c.inner}, tb::DataType::kFloat32);
    tb::TensorBuffer count =
        tb::TensorBuffer::create_uninitialized(tb::Shape{1}, tb::DataType::kInt64);
    std::vector<double> counting;
    for (int k = 0; k < 15; ++k) {
      const auto t0 = Clock::now();
      tb::boolean_mask_into(tensor, mask, none, count);
      const std::chrono::duration<double> dt = Clock::now() - t0;
      counting.push_back(dt.count() * 1e3);
    }
    std::printf("%s: memcpy %.1f GB/s (median of rounds), count pass alone %.2f ms\n", c.name,
                median(limits), median(counting));
    for (std::size_t v = 0; v < names.size(); ++v) {
      std::vector<double> paired;
      for (std::size_t r = 0; r < times[v].size(); ++r) paired.push_back(times[v][r] / times[0][r]);
      std::printf("  %-14s ms %.2f  time / first's %.3f  x memcpy median %.3f  rounds:",
                  names[v].c_str(), median(times[v]), median(paired), median(ratios[v]));
      for (double x : ratios[v]) std::printf(" %.2f", x);
      std::printf("\n");
    }
  }
  tb::cpu::set_boolean_mask_tuning({});
  return 0;
}
