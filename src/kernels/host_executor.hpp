// The host executor: the executor concept (executor.hpp) with serial loops and the standard
// library, so tests run the CUDA backend's drivers on the CPU.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

namespace tensorbuf::kernels {

class HostExecutor {
 public:
  // Reverse order by default flushes out drivers that assume an order the GPU would not keep.
  explicit HostExecutor(bool reverse_order = true) : reverse_(reverse_order) {}

  template <class F>
  void for_each_index(std::int64_t n, F f) {
    if (reverse_) {
      for (std::int64_t i = n - 1; i >= 0; --i) f(i);
    } else {
      for (std::int64_t i = 0; i < n; ++i) f(i);
    }
  }

  template <class T>
  T* scratch(std::int64_t n) {
    blocks_.emplace_back(new std::byte[static_cast<std::size_t>(std::max<std::int64_t>(n, 1)) *
                                       sizeof(T)]);
    return reinterpret_cast<T*>(blocks_.back().get());
  }

  template <class T>
  void fill(T* data, T value, std::int64_t n) {
    std::fill(data, data + n, value);
  }

  template <class T>
  void exclusive_scan(const T* in, T* out, std::int64_t n) {
    std::exclusive_scan(in, in + n, out, T{0});
  }

  template <class K, class V>
  void sort_by_key(K* keys, V* values, std::int64_t n) {
    std::vector<std::int64_t> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::int64_t a, std::int64_t b) { return keys[a] < keys[b]; });
    std::vector<K> sorted_keys(order.size());
    std::vector<V> sorted_values(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
      sorted_keys[i] = keys[order[i]];
      sorted_values[i] = values[order[i]];
    }
    std::copy(sorted_keys.begin(), sorted_keys.end(), keys);
    std::copy(sorted_values.begin(), sorted_values.end(), values);
  }

  template <class T>
  T read_value(const T* data) {
    ++reads_;
    return *data;
  }

  void copy(void* dst, const void* src, std::size_t bytes) {
    if (bytes != 0) std::memmove(dst, src, bytes);
  }

  // How many read_value calls the driver made (each would be a host wait on CUDA).
  int reads() const { return reads_; }

 private:
  bool reverse_;
  int reads_ = 0;
  std::vector<std::unique_ptr<std::byte[]>> blocks_;
};

}  // namespace tensorbuf::kernels
