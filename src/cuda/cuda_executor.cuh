// The CUDA executor: the executor concept of src/kernels/executor.hpp on one stream, with
// grid-stride launches, CUB scans (of arrays, or of a functor's values through a thrust
// transform iterator) and radix sorts, and scratch from the caching allocator.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <utility>
#include <vector>

#include "core/cuda_context.hpp"
#include "core/stats_counters.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/current_device.hpp"

namespace tensorbuf::cuda {

template <class F>
__global__ void for_each_index_kernel(std::int64_t n, F f) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    f(i);
  }
}

// Each block takes tiles of K * blockDim.x indices: thread t loads items t, t + blockDim.x, ...
// (coalesced for each k), all K before it stores any.
template <int K, class F>
__global__ void for_each_index_staged_kernel(std::int64_t n, F f) {
  using Item = decltype(f.load(std::int64_t{0}));
  const std::int64_t tile = static_cast<std::int64_t>(blockDim.x) * K;
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * tile; base < n;
       base += static_cast<std::int64_t>(gridDim.x) * tile) {
    Item items[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const std::int64_t i = base + static_cast<std::int64_t>(k) * blockDim.x + threadIdx.x;
      if (i < n) items[k] = f.load(i);
    }
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const std::int64_t i = base + static_cast<std::int64_t>(k) * blockDim.x + threadIdx.x;
      if (i < n) f.store(i, items[k]);
    }
  }
}

template <class T>
struct FillFunctor {
  T* data;
  T value;
  __device__ void operator()(std::int64_t i) const { data[i] = value; }
};

class CudaExecutor {
 public:
  static constexpr int kBlockSize = 256;

  // The context's device is current for the executor's lifetime (launches and frees).
  explicit CudaExecutor(const core::CudaContext& context)
      : current_device_(context.device), context_(context) {}
  CudaExecutor(const CudaExecutor&) = delete;
  CudaExecutor& operator=(const CudaExecutor&) = delete;
  ~CudaExecutor() {
    for (auto& [ptr, bytes] : scratch_) {
      context_.memory->free_device(ptr, bytes, context_.device, context_.stream);
    }
  }

  cudaStream_t stream() const { return static_cast<cudaStream_t>(context_.stream); }
  const core::CudaContext& context() const { return context_; }

  template <class F>
  void for_each_index(std::int64_t n, F f) {
    if (n <= 0) return;
    const std::int64_t blocks_needed = (n + kBlockSize - 1) / kBlockSize;
    const int blocks =
        static_cast<int>(blocks_needed < max_blocks() ? blocks_needed : max_blocks());
    for_each_index_kernel<<<blocks, kBlockSize, 0, stream()>>>(n, f);
    TENSORBUF_CUDA_TRY(cudaGetLastError());
  }

  template <int K, class F>
  void for_each_index_staged(std::int64_t n, F f) {
    if (n <= 0) return;
    const std::int64_t tile = std::int64_t{kBlockSize} * K;
    const std::int64_t blocks_needed = (n + tile - 1) / tile;
    const int blocks =
        static_cast<int>(blocks_needed < max_blocks() ? blocks_needed : max_blocks());
    for_each_index_staged_kernel<K><<<blocks, kBlockSize, 0, stream()>>>(n, f);
    TENSORBUF_CUDA_TRY(cudaGetLastError());
  }

  template <class T>
  T* scratch(std::int64_t n) {
    const std::size_t bytes = static_cast<std::size_t>(n > 0 ? n : 1) * sizeof(T);
    void* ptr = context_.memory->allocate_device(bytes, context_.device, context_.stream);
    scratch_.emplace_back(ptr, bytes);
    return static_cast<T*>(ptr);
  }

  template <class T>
  void fill(T* data, T value, std::int64_t n) {
    for_each_index(n, FillFunctor<T>{data, value});
  }

  template <class T>
  void exclusive_scan(const T* in, T* out, std::int64_t n) {
    if (n <= 0) return;
    with_cub_temp([&](void* temp, std::size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n, stream());
    });
  }

  template <class T, class F>
  void exclusive_scan_of(F f, T* out, std::int64_t n) {
    if (n <= 0) return;
    const auto in =
        thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), f);
    with_cub_temp([&](void* temp, std::size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n, stream());
    });
  }

  template <class T, class In, class Op, class Out>
  void exclusive_scan_by(In in, T init, Op op, Out out, std::int64_t n) {
    if (n <= 0) return;
    const auto values =
        thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), in);
    const auto results = thrust::make_tabulate_output_iterator(out);
    with_cub_temp([&](void* temp, std::size_t& bytes) {
      return cub::DeviceScan::ExclusiveScan(temp, bytes, values, results, op, init, n, stream());
    });
  }

  template <class K, class V>
  void sort_by_key(K* keys, V* values, std::int64_t n) {
    if (n <= 1) return;
    K* keys_alt = scratch<K>(n);
    V* values_alt = scratch<V>(n);
    cub::DoubleBuffer<K> key_buffer(keys, keys_alt);
    cub::DoubleBuffer<V> value_buffer(values, values_alt);
    with_cub_temp([&](void* temp, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(temp, bytes, key_buffer, value_buffer, n, 0,
                                             static_cast<int>(sizeof(K) * 8), stream());
    });
    if (key_buffer.Current() != keys) copy(keys, key_buffer.Current(), sizeof(K) * n);
    if (value_buffer.Current() != values) copy(values, value_buffer.Current(), sizeof(V) * n);
  }

  template <class T>
  T read_value(const T* data) {
    T value{};
    context_.memory->copy_device_to_host(&value, data, sizeof(T), context_.device, context_.stream);
    core::stats_counters().device_to_host_copies++;
    core::stats_counters().bytes_device_to_host += sizeof(T);
    return value;
  }

  void copy_to_host(void* host, const void* src, std::size_t bytes) {
    if (bytes == 0) return;
    context_.memory->copy_device_to_host(host, src, bytes, context_.device, context_.stream);
    core::stats_counters().device_to_host_copies++;
    core::stats_counters().bytes_device_to_host += static_cast<std::int64_t>(bytes);
  }

  void copy(void* dst, const void* src, std::size_t bytes) {
    if (bytes != 0) {
      context_.memory->copy_device_to_device(dst, src, bytes, context_.device, context_.stream);
    }
  }

 private:
  static std::int64_t max_blocks() { return 65536; }

  // A CUB device algorithm: `call(temp, bytes)` once with temp null to size its temporary
  // storage, then with that storage from scratch.
  template <class Call>
  void with_cub_temp(Call call) {
    std::size_t temp_bytes = 0;
    TENSORBUF_CUDA_TRY(call(nullptr, temp_bytes));
    void* temp = scratch<std::byte>(static_cast<std::int64_t>(temp_bytes));
    TENSORBUF_CUDA_TRY(call(temp, temp_bytes));
  }

  CurrentDevice current_device_;
  core::CudaContext context_;
  std::vector<std::pair<void*, std::size_t>> scratch_;
};

}  // namespace tensorbuf::cuda
