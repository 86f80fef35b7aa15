// The executor concept: what a multi-pass driver in src/kernels may ask of the machine it runs
// on. src/cuda/cuda_executor.cuh implements it with grid-stride launches and CUB on a stream;
// src/kernels/host_executor.hpp with plain loops, so CPU tests run the CUDA backend's drivers.
//
//   template <class F> void for_each_index(std::int64_t n, F f);
//       Calls f(i) for every i in [0, n), in any order and possibly concurrently. F is a
//       copyable functor with a TENSORBUF_HOST_DEVICE `void operator()(std::int64_t) const`; it
//       gets only plain views (pointers + extents), never a TensorBuffer.
//   template <int K, class F> void for_each_index_staged(std::int64_t n, F f);
//       for_each_index for a functor in two steps: `auto item = f.load(i)` (reads only), then
//       `f.store(i, item)`. A CUDA thread loads K items before it stores any, so K independent
//       reads are in flight per thread (passes bound by memory latency, not bandwidth).
//   template <class T> T* scratch(std::int64_t n);
//       Uninitialised memory for n elements on the executor's side, freed (stream-ordered)
//       when the executor is destroyed.
//   template <class T> void fill(T* data, T value, std::int64_t n);
//   template <class T> void exclusive_scan(const T* in, T* out, std::int64_t n);
//       out[i] = in[0] + ... + in[i-1] (out[0] = 0); `out` may equal `in`.
//   template <class T, class F> void exclusive_scan_of(F f, T* out, std::int64_t n);
//       out[i] = f(0) + ... + f(i-1) (out[0] = 0): the scan of values a functor computes as
//       the scan reads them, with no array of them in between. F is a copyable functor with a
//       TENSORBUF_HOST_DEVICE `T operator()(std::int64_t) const` (reads only).
//   template <class T, class In, class Op, class Out>
//   void exclusive_scan_by(In in, T init, Op op, Out out, std::int64_t n);
//       out(i, init op in(0) op ... op in(i-1)) for every i in [0, n) (out(0, init)), in any
//       order: a scan under an associative `op` (TENSORBUF_HOST_DEVICE `T operator()(const T&,
//       const T&) const`) of values `in` computes (as exclusive_scan_of), each result handed to the
//       functor `out` (TENSORBUF_HOST_DEVICE `void operator()(std::int64_t, const T&) const`) to
//       store.
//   template <class K, class V> void sort_by_key(K* keys, V* values, std::int64_t n);
//       Stable ascending sort of (key, value) pairs by key; K is an unsigned integer type.
//   template <class T> T read_value(const T* data);
//       Copies one element to the host. On CUDA this waits for the stream (a host wait):
//       drivers call it only where the spec allows a sync.
//   void copy_to_host(void* host, const void* src, std::size_t bytes);
//       read_value for `bytes` bytes (a host wait on CUDA).
//   void copy(void* dst, const void* src, std::size_t bytes);   executor-side to executor-side
//
// Drivers are templates `template <class Executor> ... run_x(Executor& ex, const Plan&, ...)`.
#pragma once

#include <cstdint>

#include "kernels/config.hpp"

namespace tensorbuf::kernels {

// Writes up to 16 host values into executor memory (no host copy API needed).
struct StoreValues {
  std::int64_t* target;
  std::int64_t values[16];
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t i) const { target[i] = values[i]; }
};

// target[k] = value(k) for k in [0, count), host values into executor memory, 16 per launch:
// tables too large to travel in a functor, written by kernels (no host copy, so a CUDA graph
// can capture it).
template <class Executor, class Value>
void store_values(Executor& executor, std::int64_t* target, std::int64_t count, Value value) {
  for (std::int64_t begin = 0; begin < count; begin += 16) {
    StoreValues store{target + begin, {}};
    const std::int64_t n = count - begin < 16 ? count - begin : 16;
    for (std::int64_t k = 0; k < n; ++k) store.values[k] = value(begin + k);
    executor.for_each_index(n, store);
  }
}

}  // namespace tensorbuf::kernels
