// Diagnosis driver (not built by CMake): times each call of tensor_scatter_nd_add (out of place
// or in place) alone and counts the pool's stalls. Usage: driver LOG2_SIZE IN_PLACE WIDTH CALLS.
// g++ -O2 -std=c++20 -I. -Iinclude -Isrc -Ibuild/cpu-only/include driver.cpp \
//     build/cpu-only/src/libtensorbuf.a -lbenchmark -lpthread -o driver
#include <sys/resource.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
static long flt() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}
static long csw() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_nivcsw;
}
#include "bench/bench_support.hpp"
#include "core/parallel.hpp"
using namespace tensorbuf;
using namespace tensorbuf::bench;
int main(int argc, char** argv) {
  int lg = atoi(argv[1]);
  bool inplace = atoi(argv[2]);
  int width = atoi(argv[3]);
  int iters = atoi(argv[4]);
  std::int64_t size = 1ll << lg, rows = size / width, trows = 4 * rows;
  TensorBuffer table =
      make_buffer(random_floats(trows * width, -1, 1, 11),
                  width == 1 ? Shape{trows} : Shape{trows, width}, DataType::kFloat32);
  TensorBuffer idx =
      make_index_buffer(random_ints(rows, 0, trows, 12), Shape{rows, 1}, DataType::kInt64);
  TensorBuffer upd = make_buffer(random_floats(rows * width, -1, 1, 13),
                                 width == 1 ? Shape{rows} : Shape{rows, width}, DataType::kFloat32);
  ScatterOptions o{.device = Device::cpu()};
  std::vector<double> t;
  std::vector<long> st, fl, cs;
  for (int i = 0; i < iters + 3; ++i) {
    long s0 = core::detail::stalled_jobs();
    long f0 = flt(), c0 = csw();
    auto t0 = std::chrono::steady_clock::now();
    if (inplace)
      tensor_scatter_nd_add_in_place(table, idx, upd, o);
    else {
      TensorBuffer out = tensor_scatter_nd_add(table, idx, upd, o);
      benchmark::DoNotOptimize(&out);
    }
    std::chrono::duration<double, std::micro> d = std::chrono::steady_clock::now() - t0;
    if (i >= 3) {
      t.push_back(d.count());
      st.push_back(core::detail::stalled_jobs() - s0);
      fl.push_back(flt() - f0);
      cs.push_back(csw() - c0);
    }
  }
  std::vector<double> s = t;
  std::sort(s.begin(), s.end());
  double p50 = s[s.size() / 2], p99 = s[s.size() * 99 / 100];
  printf("p50 %.1f p99 %.1f max %.1f ratio %.2f stalls %ld\n", p50, p99, s.back(), p99 / p50,
         core::detail::stalled_jobs());
  // slow calls: index and neighbours
  for (size_t i = 0; i < t.size(); ++i)
    if (0 && st[i]) {
      for (size_t j = i; j < std::min(t.size(), i + 150); ++j)
        printf("%.0f%s ", t[j], st[j] ? "S" : "");
      printf("\n");
      break;
    }
  for (size_t i = 0; i < t.size(); ++i)
    if (t[i] > 1.8 * p50)
      printf("  #%zu %.1f stall%ld faults %ld invcsw %ld\n", i, t[i], st[i], fl[i], cs[i]);
}
