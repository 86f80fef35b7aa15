// Diagnosis driver (not built by CMake): cpu::scatter_nd_tuned on random one-element (or WIDTH)
// updates against a plain serial update loop, medians of 41 calls each. Usage:
// tune2 SIZE WIDTH OWNERS PREFETCH BUCKET_BYTES [OP=2 (update)] [OUT_OF_PLACE=0] [DROP=0]
// g++ -O3 -std=c++20 -Iinclude -Isrc -Ibuild/cpu-only/include tune2.cpp \
//     build/cpu-only/src/libtensorbuf.a -lpthread -o tune2
#include <tensorbuf/tensorbuf.hpp>
#include "core/plan_scatter_nd.hpp"
#include "cpu/scatter_nd_tuning.hpp"
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>
#include <algorithm>
using namespace tensorbuf;
int main(int argc, char** argv) {
  const long size = atol(argv[1]); const long width = atol(argv[2]);
  const int owners = atoi(argv[3]); const int prefetch = atoi(argv[4]); const long bucket = atol(argv[5]);
  const int op = argc > 6 ? atoi(argv[6]) : 2;  // ScatterOp index: 2 = update
  const bool oop = argc > 7 && atoi(argv[7]) == 1;
  const long rows = size / width, trows = 4 * rows;
  std::mt19937 g(1);
  auto table = TensorBuffer::create_fixed_size(width == 1 ? Shape{trows} : Shape{trows, width}, DataType::kFloat32);
  float* t = table.mutable_host<float>(); for (long i = 0; i < trows * width; ++i) t[i] = g() % 100;
  auto ind = TensorBuffer::create_fixed_size(Shape{rows, 1}, DataType::kInt64);
  auto* ix = ind.mutable_host<std::int64_t>(); for (long i = 0; i < rows; ++i) ix[i] = g() % trows;
  auto upd = TensorBuffer::create_fixed_size(width == 1 ? Shape{rows} : Shape{rows, width}, DataType::kFloat32);
  float* u = upd.mutable_host<float>(); for (long i = 0; i < rows * width; ++i) u[i] = g() % 100;
  auto plan = core::plan_scatter_nd(static_cast<core::ScatterOp>(op), table, ind, upd);
  plan.policy = (argc > 8 && atoi(argv[8]) == 1) ? OutOfBoundsPolicy::kDrop : OutOfBoundsPolicy::kError;
  auto outbuf = TensorBuffer::create_fixed_size(table.shape(), DataType::kFloat32); std::memset(outbuf.mutable_host<float>(), 0, trows*width*4);
  core::ScatterNdBuffers b; b.indices = ind.host<std::int64_t>(); b.updates = upd.host<float>(); float* tp = table.mutable_host<float>(); b.tensor = tp; b.out = oop ? outbuf.mutable_host<float>() : tp;
  cpu::ScatterNdTuning tu; tu.owners = owners; tu.prefetch = prefetch; tu.bucket_bytes = bucket;
  std::vector<double> ts;
  for (int k = 0; k < 41; ++k) {
    auto t0 = std::chrono::steady_clock::now();
    cpu::scatter_nd_tuned(plan, b, tu);
    ts.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ts.begin(), ts.end());
  // serial loop
  std::vector<double> ys;
  for (int k = 0; k < 41; ++k) {
    auto t0 = std::chrono::steady_clock::now();
    float* ob = oop ? outbuf.mutable_host<float>() : t; if (oop) std::memcpy(ob, t, trows*width*4);
    for (long r = 0; r < rows; ++r) { float* o = ob + ix[r] * width; const float* uu = u + r * width; for (long j = 0; j < width; ++j) o[j] = uu[j]; }
    asm volatile("" ::: "memory");
    ys.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ys.begin(), ys.end());
  printf("oop=%d owners=%d prefetch=%d bucket=%ld: op %.0f us, loop %.0f us, x%.2f\n", (int)oop, owners, prefetch, bucket, ts[20], ys[20], ts[20]/ys[20]);
}
