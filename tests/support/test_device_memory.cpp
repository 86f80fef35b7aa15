#include "support/test_device_memory.hpp"

#include <cstdlib>
#include <cstring>
#include <string>

#include "core/stats_counters.hpp"
#include "tensorbuf/errors.hpp"

namespace tensorbuf::testing {

TestDeviceMemory::~TestDeviceMemory() = default;

void TestDeviceMemory::forbid_in_capture(const char* what) {
  if (capture_stream_.load() == nullptr) return;
  ++capture_violations_;
  throw InternalError(std::string("operation not permitted when stream is capturing: ") + what);
}

bool TestDeviceMemory::is_capturing(core::StreamHandle stream) {
  return stream != nullptr && capture_stream_.load() == stream;
}

void TestDeviceMemory::begin_capture(core::StreamHandle stream) {
  capture_violations_ = 0;
  captured_stream_waits_ = 0;
  capture_stream_ = stream;
}

std::int64_t TestDeviceMemory::end_capture() {
  capture_stream_ = nullptr;
  return capture_violations_;
}

void TestDeviceMemory::count_allocation() {
  const std::int64_t n = ++allocations_;
  if (fail_allocation_at_ != 0 && n == fail_allocation_at_) {
    throw ResourceExhaustedError("injected allocation failure");
  }
}

void TestDeviceMemory::count_copy() {
  const std::int64_t n = ++copies_;
  if (fail_copy_at_ != 0 && n == fail_copy_at_) throw InternalError("injected copy failure");
}

core::StreamHandle TestDeviceMemory::default_stream(int device) {
  return &stream_token_[device & 3];
}

void* TestDeviceMemory::allocate_device(std::size_t bytes, int, core::StreamHandle) {
  count_allocation();
  void* ptr = std::malloc(bytes == 0 ? 1 : bytes);
  if (ptr == nullptr) throw ResourceExhaustedError("test device memory exhausted");
  ++device_allocations_;
  core::stats_counters().device_allocations++;
  std::lock_guard lock(mutex_);
  device_blocks_.insert(ptr);
  return ptr;
}

void TestDeviceMemory::free_device(void* ptr, std::size_t, int, core::StreamHandle) noexcept {
  {
    std::lock_guard lock(mutex_);
    device_blocks_.erase(ptr);
  }
  std::free(ptr);
}

void* TestDeviceMemory::allocate_host(std::size_t bytes) {
  forbid_in_capture("host allocation");
  count_allocation();
  void* ptr = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
  if (ptr == nullptr) throw ResourceExhaustedError("test host memory exhausted");
  ++host_allocations_;
  core::stats_counters().pinned_host_allocations++;
  std::lock_guard lock(mutex_);
  host_blocks_.insert(ptr);
  return ptr;
}

void TestDeviceMemory::free_host(void* ptr, std::size_t, core::EventHandle) noexcept {
  {
    std::lock_guard lock(mutex_);
    host_blocks_.erase(ptr);
  }
  std::free(ptr);
}

void TestDeviceMemory::log(TraceEntry::Kind kind, core::StreamHandle stream,
                           core::EventHandle event) {
  std::lock_guard lock(mutex_);
  trace_.push_back(TraceEntry{kind, stream, event != nullptr ? *static_cast<int*>(event) : 0});
}

std::vector<TraceEntry> TestDeviceMemory::trace() const {
  std::lock_guard lock(mutex_);
  return trace_;
}

void TestDeviceMemory::clear_trace() {
  std::lock_guard lock(mutex_);
  trace_.clear();
}

void TestDeviceMemory::copy_host_to_device(void* dst, const void* src, std::size_t bytes, int,
                                           core::StreamHandle stream) {
  forbid_in_capture("upload from host memory");
  count_copy();
  std::memcpy(dst, src, bytes);
  ++uploads_;
  log(TraceEntry::Kind::kUpload, stream, nullptr);
}

void TestDeviceMemory::copy_device_to_device(void* dst, const void* src, std::size_t bytes, int,
                                             core::StreamHandle stream) {
  count_copy();
  std::memmove(dst, src, bytes);
  log(TraceEntry::Kind::kDeviceCopy, stream, nullptr);
}

void TestDeviceMemory::copy_device_to_host(void* dst, const void* src, std::size_t bytes, int,
                                           core::StreamHandle stream) {
  forbid_in_capture("download (host wait)");
  count_copy();
  std::memcpy(dst, src, bytes);
  log(TraceEntry::Kind::kDownload, stream, nullptr);
  ++downloads_;
  ++host_waits_;
  core::stats_counters().host_waits++;
}

void TestDeviceMemory::memset_device(void* dst, int value, std::size_t bytes, int,
                                     core::StreamHandle) {
  std::memset(dst, value, bytes);
}

core::EventHandle TestDeviceMemory::record_event(core::EventHandle event, int,
                                                core::StreamHandle stream) {
  const std::int64_t n = ++records_;
  if (fail_record_at_ != 0 && n == fail_record_at_) {
    throw InternalError("injected event record failure");
  }
  if (event == nullptr) {
    std::lock_guard lock(mutex_);
    event = new int(++next_event_id_);
    ++live_events_;
  }
  log(TraceEntry::Kind::kRecord, stream, event);
  return event;
}

void TestDeviceMemory::destroy_event(core::EventHandle event) noexcept {
  if (event == nullptr) return;
  --live_events_;
  delete static_cast<int*>(event);
}

void TestDeviceMemory::host_wait(core::EventHandle event) {
  forbid_in_capture("host wait");
  ++host_waits_;
  core::stats_counters().host_waits++;
  log(TraceEntry::Kind::kHostWait, nullptr, event);
}

void TestDeviceMemory::stream_wait(core::StreamHandle stream, core::EventHandle event) {
  if (is_capturing(stream)) ++captured_stream_waits_;
  ++stream_waits_;
  log(TraceEntry::Kind::kStreamWait, stream, event);
}

std::int64_t TestDeviceMemory::live_device_blocks() const {
  std::lock_guard lock(mutex_);
  return static_cast<std::int64_t>(device_blocks_.size());
}

std::int64_t TestDeviceMemory::live_host_blocks() const {
  std::lock_guard lock(mutex_);
  return static_cast<std::int64_t>(host_blocks_.size());
}

bool TestDeviceMemory::is_device_pointer(const void* ptr) const {
  std::lock_guard lock(mutex_);
  return device_blocks_.count(ptr) != 0;
}

}  // namespace tensorbuf::testing
