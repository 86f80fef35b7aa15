// The host executor: the executor concept (executor.hpp) with serial loops and the standard
// library, so tests run the CUDA backend's drivers on the CPU.
//
// Its fault points are the CUDA executor's scratch allocations: every scratch() call, the
// temporary storage of a scan (n > 0) and the three buffers of a sort (n > 1). fail_scratch(k)
// makes the k-th of them throw ResourceExhaustedError, as a failed cudaMallocAsync would.
// Single-threaded, like the rest of this class.
//
// Capture mode (begin_capture .. end_capture) stands in for CUDA stream capture: the work a
// driver asks for is recorded, not run, scratch is taken at capture time (as a graph owns its
// pool allocations), and a read_value throws, since on CUDA it would wait for work that has not
// run. replay() then runs the recorded work, as often as wanted, on whatever the buffers hold.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <numeric>
#include <utility>
#include <vector>

#include "tensorbuf/errors.hpp"

namespace tensorbuf::kernels {

class HostExecutor {
 public:
  // Reverse order by default flushes out drivers that assume an order the GPU would not keep.
  explicit HostExecutor(bool reverse_order = true) : reverse_(reverse_order) {}

  template <class F>
  void for_each_index(std::int64_t n, F f) {
    if (capturing_) {
      graph_.push_back([this, n, f] {
        const bool was = capturing_;
        capturing_ = false;
        for_each_index(n, f);
        capturing_ = was;
      });
      return;
    }
    if (reverse_) {
      for (std::int64_t i = n - 1; i >= 0; --i) f(i);
    } else {
      for (std::int64_t i = 0; i < n; ++i) f(i);
    }
  }

  template <int K, class F>
  void for_each_index_staged(std::int64_t n, F f) {
    for_each_index(n, [f](std::int64_t i) { f.store(i, f.load(i)); });
  }

  template <class T>
  T* scratch(std::int64_t n) {
    fault_point();
    blocks_.emplace_back(new std::byte[static_cast<std::size_t>(std::max<std::int64_t>(n, 1)) *
                                       sizeof(T)]);
    return reinterpret_cast<T*>(blocks_.back().get());
  }

  template <class T>
  void fill(T* data, T value, std::int64_t n) {
    if (record([=] { std::fill(data, data + n, value); })) return;
    std::fill(data, data + n, value);
  }

  template <class T>
  void exclusive_scan(const T* in, T* out, std::int64_t n) {
    if (n <= 0) return;
    fault_point();  // CUB's temporary storage on CUDA
    if (record([=] { std::exclusive_scan(in, in + n, out, T{0}); })) return;
    std::exclusive_scan(in, in + n, out, T{0});
  }

  template <class T, class F>
  void exclusive_scan_of(F f, T* out, std::int64_t n) {
    exclusive_scan_by(f, T{0}, std::plus<T>{}, [out](std::int64_t i, T value) { out[i] = value; },
                      n);
  }

  template <class T, class In, class Op, class Out>
  void exclusive_scan_by(In in, T init, Op op, Out out, std::int64_t n) {
    if (n <= 0) return;
    fault_point();  // CUB's temporary storage on CUDA
    auto scan = [=] {
      T sum = init;
      for (std::int64_t i = 0; i < n; ++i) {
        const T value = in(i);
        out(i, sum);
        sum = op(sum, value);
      }
    };
    if (record(scan)) return;
    scan();
  }

  template <class K, class V>
  void sort_by_key(K* keys, V* values, std::int64_t n) {
    if (n <= 1) return;
    // Three scratch buffers, as CUB's radix sort takes (two alternates and temporary storage).
    auto* order = scratch<std::int64_t>(n);
    K* sorted_keys = scratch<K>(n);
    V* sorted_values = scratch<V>(n);
    auto sort = [=] {
      std::iota(order, order + n, std::int64_t{0});
      std::stable_sort(order, order + n,
                       [&](std::int64_t a, std::int64_t b) { return keys[a] < keys[b]; });
      for (std::int64_t i = 0; i < n; ++i) {
        sorted_keys[i] = keys[order[i]];
        sorted_values[i] = values[order[i]];
      }
      std::copy(sorted_keys, sorted_keys + n, keys);
      std::copy(sorted_values, sorted_values + n, values);
    };
    if (record(sort)) return;
    sort();
  }

  template <class T>
  T read_value(const T* data) {
    ++reads_;
    if (capturing_) {
      throw InternalError("HostExecutor: read_value during capture (a host wait on CUDA)");
    }
    return *data;
  }

  void copy_to_host(void* host, const void* src, std::size_t bytes) {
    ++reads_;
    if (capturing_) {
      throw InternalError("HostExecutor: copy_to_host during capture (a host wait on CUDA)");
    }
    if (bytes != 0) std::memcpy(host, src, bytes);
  }

  void copy(void* dst, const void* src, std::size_t bytes) {
    if (bytes == 0) return;
    if (record([=] { std::memmove(dst, src, bytes); })) return;
    std::memmove(dst, src, bytes);
  }

  // Capture mode (see the top of this file).
  void begin_capture() {
    graph_.clear();
    capturing_ = true;
  }
  void end_capture() { capturing_ = false; }
  bool capturing() const { return capturing_; }
  // Runs the work recorded by the last capture, in order.
  void replay() {
    for (const auto& step : graph_) step();
  }
  std::size_t captured_steps() const { return graph_.size(); }

  // How many read_value calls the driver made (each would be a host wait on CUDA).
  int reads() const { return reads_; }

  // Test hook: the k-th fault point from now (1-based) throws; 0 = none.
  void fail_scratch(int k) { fail_at_ = k == 0 ? 0 : fault_points_ + k; }
  // Fault points passed so far (scratch allocations on CUDA).
  int fault_points() const { return fault_points_; }

 private:
  // In capture mode: keeps `step` for replay() and returns true.
  template <class Step>
  bool record(Step step) {
    if (!capturing_) return false;
    graph_.emplace_back(std::move(step));
    return true;
  }

  void fault_point() {
    if (++fault_points_ == fail_at_) throw ResourceExhaustedError("injected scratch failure");
  }

  bool reverse_;
  bool capturing_ = false;
  std::vector<std::function<void()>> graph_;
  int reads_ = 0;
  int fault_points_ = 0;
  int fail_at_ = 0;
  std::vector<std::unique_ptr<std::byte[]>> blocks_;
};

}  // namespace tensorbuf::kernels
