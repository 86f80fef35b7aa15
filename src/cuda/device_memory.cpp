// The CUDA device memory: stream-ordered pool allocations (cudaMallocAsync on a pool that
// keeps freed memory), a caching pinned-host allocator, one non-blocking stream per device.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "core/backend.hpp"
#include "core/stats_counters.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/current_device.hpp"

namespace tensorbuf::cuda {
namespace {

// Pinned blocks are cached by size; a freed block is reused only once the event recorded
// with its last upload has completed.
class PinnedCache {
 public:
  void* allocate(std::size_t bytes) {
    const std::size_t rounded = round_up(bytes);
    {
      std::lock_guard lock(mutex_);
      auto& list = free_[rounded];
      for (auto it = list.begin(); it != list.end(); ++it) {
        if (it->pending == nullptr ||
            cudaEventQuery(static_cast<cudaEvent_t>(it->pending)) == cudaSuccess) {
          void* ptr = it->ptr;
          if (it->pending != nullptr) cudaEventDestroy(static_cast<cudaEvent_t>(it->pending));
          list.erase(it);
          sizes_[ptr] = rounded;
          return ptr;
        }
      }
    }
    void* ptr = nullptr;
    TENSORBUF_CUDA_TRY(cudaMallocHost(&ptr, rounded));
    core::stats_counters().pinned_host_allocations++;
    std::lock_guard lock(mutex_);
    sizes_[ptr] = rounded;
    return ptr;
  }

  void release(void* ptr, core::EventHandle pending) noexcept {
    std::lock_guard lock(mutex_);
    auto it = sizes_.find(ptr);
    if (it == sizes_.end()) return;
    cudaEvent_t copy = nullptr;
    if (pending != nullptr &&
        cudaEventCreateWithFlags(&copy, cudaEventDisableTiming) == cudaSuccess) {
      // Our own event that completes after `pending` (the storage destroys that one right
      // after this call), chained through a private stream so nothing blocks.
      if (release_stream_ == nullptr) {
        cudaStreamCreateWithFlags(&release_stream_, cudaStreamNonBlocking);
      }
      cudaStreamWaitEvent(release_stream_, static_cast<cudaEvent_t>(pending), 0);
      cudaEventRecord(copy, release_stream_);
    }
    free_[it->second].push_back(Block{ptr, copy});
    sizes_.erase(it);
  }

 private:
  struct Block {
    void* ptr;
    core::EventHandle pending;
  };
  static std::size_t round_up(std::size_t bytes) {
    std::size_t size = 4096;
    while (size < bytes) size *= 2;
    return size;
  }
  std::mutex mutex_;
  cudaStream_t release_stream_ = nullptr;
  std::map<std::size_t, std::vector<Block>> free_;
  std::map<void*, std::size_t> sizes_;
};

class CudaDeviceMemory final : public core::DeviceMemory {
 public:
  explicit CudaDeviceMemory(int device_count)
      : streams_(static_cast<std::size_t>(device_count), nullptr),
        pools_(static_cast<std::size_t>(device_count), nullptr) {}

  core::StreamHandle default_stream(int device) override {
    std::lock_guard lock(mutex_);
    cudaStream_t& stream = streams_.at(static_cast<std::size_t>(device));
    if (stream == nullptr) {
      CurrentDevice guard(device);
      // A blocking stream: work the caller enqueues on the legacy default stream (plain
      // cudaMemset, kernel<<<>>> without a stream) is ordered with the library's work.
      TENSORBUF_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamDefault));
      cudaMemPool_t pool = nullptr;
      TENSORBUF_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, device));
      std::uint64_t keep_everything = UINT64_MAX;  // freed memory stays cached in the pool
      TENSORBUF_CUDA_TRY(
          cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_everything));
      pools_.at(static_cast<std::size_t>(device)) = pool;
    }
    return stream;
  }

  void* allocate_device(std::size_t bytes, int device, core::StreamHandle stream) override {
    default_stream(device);  // makes sure the pool is configured
    CurrentDevice guard(device);
    cudaMemPool_t pool = pools_.at(static_cast<std::size_t>(device));
    // Rounded up to whole 64-bit words: the atomics for 8- and 16-bit types (scatter_nd) work
    // on the aligned 32-bit word holding the element, and substr's lane form loads the aligned
    // 64-bit words holding a string (kernels/substr.hpp), which must lie inside the allocation.
    const std::size_t rounded = (bytes + 7) & ~static_cast<std::size_t>(7);
    void* ptr = nullptr;
    if (is_capturing(stream)) {
      // A graph memory node: the graph's own memory, outside the pool's counters. Pool queries
      // are not permitted while a stream captures (they invalidated the capture on the H200).
      TENSORBUF_CUDA_TRY(cudaMallocAsync(&ptr, rounded, static_cast<cudaStream_t>(stream)));
      return ptr;
    }
    std::uint64_t reserved_before = 0;
    cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved_before);
    TENSORBUF_CUDA_TRY(
        cudaMallocFromPoolAsync(&ptr, rounded, pool, static_cast<cudaStream_t>(stream)));
    std::uint64_t reserved_after = 0;
    cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved_after);
    if (reserved_after > reserved_before) core::stats_counters().device_allocations++;
    return ptr;
  }

  void free_device(void* ptr, std::size_t, int device,
                   core::StreamHandle stream) noexcept override {
    if (ptr == nullptr) return;
    int previous = 0;
    cudaGetDevice(&previous);
    cudaSetDevice(device);
    cudaFreeAsync(ptr, static_cast<cudaStream_t>(stream));
    cudaSetDevice(previous);
  }

  void* allocate_host(std::size_t bytes) override { return pinned_.allocate(bytes); }

  void free_host(void* ptr, std::size_t, core::EventHandle pending) noexcept override {
    pinned_.release(ptr, pending);
  }

  void copy_host_to_device(void* dst, const void* src, std::size_t bytes, int device,
                           core::StreamHandle stream) override {
    CurrentDevice guard(device);
    TENSORBUF_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice,
                                       static_cast<cudaStream_t>(stream)));
  }

  void copy_device_to_device(void* dst, const void* src, std::size_t bytes, int device,
                             core::StreamHandle stream) override {
    CurrentDevice guard(device);
    TENSORBUF_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice,
                                       static_cast<cudaStream_t>(stream)));
  }

  void copy_device_to_host(void* dst, const void* src, std::size_t bytes, int device,
                           core::StreamHandle stream) override {
    CurrentDevice guard(device);
    TENSORBUF_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost,
                                       static_cast<cudaStream_t>(stream)));
    core::stats_counters().host_waits++;
    TENSORBUF_CUDA_TRY(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)));
  }

  void memset_device(void* dst, int value, std::size_t bytes, int device,
                     core::StreamHandle stream) override {
    CurrentDevice guard(device);
    TENSORBUF_CUDA_TRY(cudaMemsetAsync(dst, value, bytes, static_cast<cudaStream_t>(stream)));
  }

  core::EventHandle record_event(core::EventHandle event, int device,
                                 core::StreamHandle stream) override {
    CurrentDevice guard(device);
    cudaEvent_t e = static_cast<cudaEvent_t>(event);
    if (e == nullptr) TENSORBUF_CUDA_TRY(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    // In a capture, an external record node: each replay records the event for real, and the
    // event stays usable outside the graph (a plain record would leave it "captured", and every
    // later wait on the buffer would fail with cudaErrorCapturedEvent).
    TENSORBUF_CUDA_TRY(cudaEventRecordWithFlags(
        e, static_cast<cudaStream_t>(stream),
        is_capturing(stream) ? cudaEventRecordExternal : cudaEventRecordDefault));
    return e;
  }

  void destroy_event(core::EventHandle event) noexcept override {
    if (event != nullptr) cudaEventDestroy(static_cast<cudaEvent_t>(event));
  }

  void host_wait(core::EventHandle event) override {
    core::stats_counters().host_waits++;
    TENSORBUF_CUDA_TRY(cudaEventSynchronize(static_cast<cudaEvent_t>(event)));
  }

  void stream_wait(core::StreamHandle stream, core::EventHandle event) override {
    // In a capture, an external wait node: each replay waits for the event's latest record
    // (the last write of the buffer, made outside the graph or by an external record in it).
    TENSORBUF_CUDA_TRY(cudaStreamWaitEvent(
        static_cast<cudaStream_t>(stream), static_cast<cudaEvent_t>(event),
        is_capturing(stream) ? cudaEventWaitExternal : cudaEventWaitDefault));
  }

  bool is_capturing(core::StreamHandle stream) override {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    TENSORBUF_CUDA_TRY(cudaStreamIsCapturing(static_cast<cudaStream_t>(stream), &status));
    return status != cudaStreamCaptureStatusNone;
  }

 private:
  std::mutex mutex_;
  std::vector<cudaStream_t> streams_;
  std::vector<cudaMemPool_t> pools_;
  PinnedCache pinned_;
};

}  // namespace

core::DeviceMemory& device_memory() {
  // Never destroyed: buffers with static storage duration may free into it at exit.
  static CudaDeviceMemory* memory = new CudaDeviceMemory(probe().device_count);
  return *memory;
}

}  // namespace tensorbuf::cuda
