// A host executor that counts the work a driver queues as the CUDA executor's launches: a pass
// or a fill is one launch, a CUB scan two (its tile-state init and the scan), a device copy
// one. Host reads are HostExecutor::reads(). For tests that pin a driver's launches per call.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/host_executor.hpp"

namespace tensorbuf::testing {

class LaunchCountingExecutor : public kernels::HostExecutor {
 public:
  using HostExecutor::HostExecutor;

  template <class F>
  void for_each_index(std::int64_t n, F f) {
    launches_ += n > 0 ? 1 : 0;
    HostExecutor::for_each_index(n, f);
  }
  template <int K, class F>
  void for_each_index_staged(std::int64_t n, F f) {
    launches_ += n > 0 ? 1 : 0;
    HostExecutor::for_each_index_staged<K>(n, f);
  }
  template <class T>
  void fill(T* data, T value, std::int64_t n) {
    launches_ += n > 0 ? 1 : 0;
    HostExecutor::fill(data, value, n);
  }
  template <class T>
  void exclusive_scan(const T* in, T* out, std::int64_t n) {
    launches_ += n > 0 ? 2 : 0;
    HostExecutor::exclusive_scan(in, out, n);
  }
  template <class T, class F>
  void exclusive_scan_of(F f, T* out, std::int64_t n) {
    launches_ += n > 0 ? 2 : 0;
    HostExecutor::exclusive_scan_of(f, out, n);
  }
  template <class T, class In, class Op, class Out>
  void exclusive_scan_by(In in, T init, Op op, Out out, std::int64_t n) {
    launches_ += n > 0 ? 2 : 0;
    HostExecutor::exclusive_scan_by(in, init, op, out, n);
  }
  void copy(void* dst, const void* src, std::size_t bytes) {
    launches_ += bytes > 0 ? 1 : 0;
    HostExecutor::copy(dst, src, bytes);
  }
  int launches() const { return launches_; }

 private:
  int launches_ = 0;
};

}  // namespace tensorbuf::testing
