// The small device-memory interface that src/core uses and the CUDA backend implements
// (tests implement it too, with host memory posing as device memory).
#pragma once

#include <cstddef>

namespace tensorbuf::core {

using StreamHandle = void*;  // a cudaStream_t under CUDA
using EventHandle = void*;   // a cudaEvent_t under CUDA

// Allocation failures throw ResourceExhaustedError, runtime failures InternalError.
// Implementations count real allocations (cache misses) and host waits in stats();
// the storage counts the copies it asks for.
class DeviceMemory {
 public:
  virtual ~DeviceMemory() = default;

  // The library-owned stream of `device`.
  virtual StreamHandle default_stream(int device) = 0;

  // Stream-ordered device memory: usable by work on `stream` right away, and reusable once
  // work on `stream` before the free has finished.
  virtual void* allocate_device(std::size_t bytes, int device, StreamHandle stream) = 0;
  virtual void free_device(void* ptr, std::size_t bytes, int device,
                           StreamHandle stream) noexcept = 0;

  // Host memory for buffers (pinned, when a GPU is present). `pending` is an event that must
  // complete before the memory may be reused (null: none).
  virtual void* allocate_host(std::size_t bytes) = 0;
  virtual void free_host(void* ptr, std::size_t bytes, EventHandle pending) noexcept = 0;

  // Enqueued on `stream`; returns without waiting.
  virtual void copy_host_to_device(void* dst, const void* src, std::size_t bytes, int device,
                                   StreamHandle stream) = 0;
  virtual void copy_device_to_device(void* dst, const void* src, std::size_t bytes, int device,
                                     StreamHandle stream) = 0;
  // Enqueued on `stream`, then waits for the stream (counted as a host wait).
  virtual void copy_device_to_host(void* dst, const void* src, std::size_t bytes, int device,
                                   StreamHandle stream) = 0;
  virtual void memset_device(void* dst, int value, std::size_t bytes, int device,
                             StreamHandle stream) = 0;

  // Records `event` (created when null) after the work enqueued so far on `stream`.
  virtual EventHandle record_event(EventHandle event, int device, StreamHandle stream) = 0;
  virtual void destroy_event(EventHandle event) noexcept = 0;
  // Blocks the host until `event` has completed (counted as a host wait).
  virtual void host_wait(EventHandle event) = 0;
  // Makes later work on `stream` wait for `event` without blocking the host.
  virtual void stream_wait(StreamHandle stream, EventHandle event) = 0;

  // True while `stream` is being captured into a CUDA graph (docs/capture.md): work enqueued
  // on it is recorded, not run, so nothing may wait for it or read its results on the host.
  virtual bool is_capturing(StreamHandle stream) = 0;
};

// The process-wide device memory: the test override if one is installed, else the CUDA
// backend's when a usable device exists, else null (host-only buffers).
DeviceMemory* device_memory();

// Tests install host memory posing as device memory; null restores the real one.
void set_device_memory_for_testing(DeviceMemory* memory);

}  // namespace tensorbuf::core
