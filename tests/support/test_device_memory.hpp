// Host memory posing as device memory: drives the lazy-sync state machine on a CPU-only
// machine, counts what it is asked to do, and fails the N-th allocation or copy on request.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <set>
#include <vector>

#include "core/device_memory.hpp"

namespace tensorbuf::testing {

// One stream-ordering step, in the order asked for (the stream contract's tests read it).
struct TraceEntry {
  enum class Kind { kRecord, kStreamWait, kHostWait, kUpload, kDownload, kDeviceCopy };
  Kind kind;
  core::StreamHandle stream;  // null for host waits
  int event;                  // the event's id (1, 2, ... in creation order); 0 for copies
  friend bool operator==(const TraceEntry&, const TraceEntry&) = default;
};

class TestDeviceMemory final : public core::DeviceMemory {
 public:
  ~TestDeviceMemory() override;

  core::StreamHandle default_stream(int device) override;
  void* allocate_device(std::size_t bytes, int device, core::StreamHandle stream) override;
  void free_device(void* ptr, std::size_t bytes, int device, core::StreamHandle) noexcept override;
  void* allocate_host(std::size_t bytes) override;
  void free_host(void* ptr, std::size_t bytes, core::EventHandle pending) noexcept override;
  void copy_host_to_device(void* dst, const void* src, std::size_t bytes, int device,
                           core::StreamHandle stream) override;
  void copy_device_to_device(void* dst, const void* src, std::size_t bytes, int device,
                             core::StreamHandle stream) override;
  void copy_device_to_host(void* dst, const void* src, std::size_t bytes, int device,
                           core::StreamHandle stream) override;
  void memset_device(void* dst, int value, std::size_t bytes, int device,
                     core::StreamHandle stream) override;
  core::EventHandle record_event(core::EventHandle event, int device,
                                 core::StreamHandle stream) override;
  void destroy_event(core::EventHandle event) noexcept override;
  void host_wait(core::EventHandle event) override;
  void stream_wait(core::StreamHandle stream, core::EventHandle event) override;
  bool is_capturing(core::StreamHandle stream) override;

  // Capture mode (docs/capture.md), CUDA's global mode: from begin_capture until end_capture,
  // `stream` reports capturing, and every call a graph cannot hold throws InternalError (as
  // CUDA fails it with cudaErrorStreamCaptureUnsupported) and is counted as a violation: a
  // host wait or download, a host allocation, an upload from host memory. Stream-ordered
  // device allocations (the pool) are allowed, and so are event records and stream waits (the
  // CUDA device memory makes them external nodes, replayed with the graph); stream waits on the
  // capturing stream are counted (captured_stream_waits).
  void begin_capture(core::StreamHandle stream);
  // Ends the capture; returns the violations it saw (0: the graph would be valid).
  std::int64_t end_capture();
  std::int64_t capture_violations() const { return capture_violations_; }
  std::int64_t captured_stream_waits() const { return captured_stream_waits_; }

  // Fail the n-th (1-based, counted from now) allocation (device or host) / copy; 0 = never.
  void fail_allocation(int n) { fail_allocation_at_ = allocations_ + n; }
  void fail_copy(int n) { fail_copy_at_ = copies_ + n; }
  // Fail the n-th (1-based, counted from now) event record with InternalError; 0 = never.
  void fail_event_record(int n) { fail_record_at_ = records_ + n; }
  void fail_nothing() {
    fail_allocation_at_ = 0;
    fail_copy_at_ = 0;
    fail_record_at_ = 0;
  }

  std::int64_t device_allocations() const { return device_allocations_; }
  std::int64_t host_allocations() const { return host_allocations_; }
  std::int64_t uploads() const { return uploads_; }
  std::int64_t downloads() const { return downloads_; }
  std::int64_t host_waits() const { return host_waits_; }
  std::int64_t stream_waits() const { return stream_waits_; }
  // Event records asked for, the failed ones included.
  std::int64_t event_records() const { return records_; }
  std::int64_t live_device_blocks() const;
  std::int64_t live_host_blocks() const;
  // True if `ptr` is memory this object handed out as device memory.
  bool is_device_pointer(const void* ptr) const;
  // Every record, wait and copy since the last clear_trace(), in order.
  std::vector<TraceEntry> trace() const;
  void clear_trace();
  std::int64_t live_events() const { return live_events_; }

 private:
  void count_allocation();
  void count_copy();
  void log(TraceEntry::Kind kind, core::StreamHandle stream, core::EventHandle event);
  void forbid_in_capture(const char* what);

  mutable std::mutex mutex_;
  std::set<const void*> device_blocks_;
  std::set<const void*> host_blocks_;
  std::atomic<std::int64_t> allocations_{0}, copies_{0};
  std::atomic<std::int64_t> fail_allocation_at_{0}, fail_copy_at_{0};
  std::atomic<std::int64_t> records_{0}, fail_record_at_{0};
  std::atomic<std::int64_t> device_allocations_{0}, host_allocations_{0};
  std::atomic<std::int64_t> uploads_{0}, downloads_{0}, host_waits_{0}, stream_waits_{0};
  int stream_token_[4] = {};
  std::vector<TraceEntry> trace_;
  int next_event_id_ = 0;
  std::atomic<std::int64_t> live_events_{0};
  std::atomic<core::StreamHandle> capture_stream_{nullptr};
  std::atomic<std::int64_t> capture_violations_{0};
  std::atomic<std::int64_t> captured_stream_waits_{0};
};

// Installs a TestDeviceMemory for the scope of a test.
class ScopedTestDeviceMemory {
 public:
  ScopedTestDeviceMemory() { core::set_device_memory_for_testing(&memory_); }
  ~ScopedTestDeviceMemory() { core::set_device_memory_for_testing(nullptr); }
  TestDeviceMemory* operator->() { return &memory_; }
  TestDeviceMemory& get() { return memory_; }

 private:
  TestDeviceMemory memory_;
};

}  // namespace tensorbuf::testing
