// Storage: up to two copies of a buffer's bytes (host, device), a validity bit for each, and
// the lazy-sync state machine between them (DESIGN.md, "TensorBuffer and lazy sync").
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>

#include "core/device_memory.hpp"

namespace tensorbuf::core {

// Every method gives the strong guarantee: if it throws (an allocation or a copy failed), the
// contents, pointers and validity bits are as they were. Const methods may sync (copy to the
// stale side) and are safe to call concurrently; a non-const call must not run concurrently
// with any other call.
class Storage {
 public:
  // Owned host memory (pinned when a device memory is active), zero-filled when `zero`.
  static std::unique_ptr<Storage> allocate(std::size_t bytes, bool zero);
  // No memory on either side and no valid side: the first write allocates.
  static std::unique_ptr<Storage> unallocated(std::size_t bytes);
  // References caller memory without copying; the first write copies it (copy-on-write).
  static std::unique_ptr<Storage> reference(const void* bytes, std::size_t size);

  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  // Frees memory in stream order; never copies, never waits for the device.
  ~Storage();

  std::size_t bytes() const { return bytes_; }

  // Host side. `host_read` copies from the device if the host copy is stale.
  const void* host_read() const;
  // `keep_contents`: sync first (mutable); otherwise the caller overwrites everything. Copies
  // referenced caller memory into owned memory first, waits for an in-flight upload that
  // still reads the host copy, and marks the device copy stale.
  void* host_write(bool keep_contents);

  // Device side, for work enqueued on `stream` of `device`. A read uploads a stale device
  // copy; work on a stream other than the last one waits (on the device) for the last use.
  // After enqueueing its work the caller must call `finish_device_use(stream)`.
  const void* device_read(int device, StreamHandle stream) const;
  void* device_write(int device, StreamHandle stream, bool keep_contents);
  void finish_device_use(StreamHandle stream) const;

  bool host_valid() const;
  bool device_valid() const;
  // The CUDA device holding the device copy, or -1 when there is none.
  int device_index() const;
  // True while the host copy is caller memory referenced by load_buffer.
  bool references_caller_memory() const;

 private:
  explicit Storage(std::size_t bytes) : bytes_(bytes) {}
  // The helpers below expect mutex_ held.
  void ensure_host_valid_locked() const;
  void ensure_device_valid_locked(int device, StreamHandle stream, bool copy) const;
  void wait_for_streams_locked(StreamHandle stream) const;
  void release_device_locked() const;

  const std::size_t bytes_;
  mutable std::mutex mutex_;
  mutable void* host_ = nullptr;
  mutable bool host_owned_ = false;            // false while host_ is caller memory (or null)
  mutable DeviceMemory* host_allocator_ = nullptr;  // null: aligned heap memory
  mutable void* device_ = nullptr;
  mutable int device_index_ = -1;
  mutable DeviceMemory* device_memory_ = nullptr;
  mutable bool host_valid_ = false;
  mutable bool device_valid_ = false;
  mutable EventHandle last_use_ = nullptr;     // recorded after the last device-side use
  mutable StreamHandle last_stream_ = nullptr;
  mutable bool upload_in_flight_ = false;      // an upload may still read host_
};

}  // namespace tensorbuf::core
