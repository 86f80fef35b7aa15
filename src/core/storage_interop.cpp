// Storage's interop half: borrowed homes, the owner's stream and write notices, DLPack export
// pins, and the release of borrowed memory (docs/interop.md, I1 / I2 / I5).
#include <utility>

#include "core/error_macros.hpp"
#include "core/storage.hpp"

namespace tensorbuf::core {

std::shared_ptr<Storage> Storage::borrow(BorrowedMemory memory) {
  DeviceMemory* device_memory_now = device_memory();
  const bool needs_device = memory.side == Side::kDevice || memory.ready_stream != nullptr;
  TENSORBUF_EXPECTS(!needs_device || device_memory_now != nullptr, UnavailableError,
                    str_cat("borrowing CUDA memory or waiting on a stream needs CUDA: ",
                            cuda_availability_reason()));
  auto storage = std::make_shared<Storage>(Key{}, memory.bytes);
  storage->borrowed_ = true;
  storage->read_only_ = memory.read_only;
  storage->cache_mirror_ = memory.cache_mirror;
  if (memory.side == Side::kDevice) {
    storage->device_ = memory.bytes == 0 ? nullptr : memory.data;
    storage->device_block_bytes_ = memory.bytes;
    storage->device_borrowed_ = true;
    storage->device_index_ = memory.device;
    storage->device_memory_ = device_memory_now;
    storage->device_valid_ = true;
  } else {
    storage->host_ = memory.bytes == 0 ? nullptr : memory.data;
    storage->host_borrowed_ = true;
    storage->host_valid_ = true;
  }
  if (memory.ready_stream != nullptr) {
    storage->events_memory_ = device_memory_now;
    storage->ready_events_.push_back(
        device_memory_now->record_event(nullptr, memory.device, memory.ready_stream));
  }
  if (memory.order_release_on_ready_stream) {
    storage->order_release_ = true;
    storage->release_order_stream_ = memory.ready_stream;
  }
  // Last: from here on nothing throws, so a failed borrow never runs the release.
  storage->release_ = std::move(memory.release);
  return storage;
}

// Before the owner gets its memory back: an upload still reading borrowed host memory is waited
// for, and an import's producer stream is ordered after tensorbuf's last use (I5.2). Failures
// are swallowed (a destructor).
void Storage::release_borrowed() noexcept {
  try {
    if (last_use_ == nullptr) return;
    if (host_borrowed_ && upload_in_flight_) device_memory_->host_wait(last_use_);
    if (order_release_) {
      StreamHandle order = release_order_stream_ != nullptr
                               ? release_order_stream_
                               : device_memory_->default_stream(device_index_);
      if (order != last_stream_) device_memory_->stream_wait(order, last_use_);
    }
  } catch (...) {
  }
}

void Storage::wait_for(StreamHandle stream, int device) {
  StateLock lock(*this);
  DeviceMemory* memory = device_memory();
  TENSORBUF_EXPECTS(memory != nullptr, UnavailableError,
                    str_cat("waiting on a stream needs CUDA: ", cuda_availability_reason()));
  const int on = device_index_ >= 0 ? device_index_ : device;
  if (stream == nullptr) stream = memory->default_stream(on);
  ready_events_.reserve(ready_events_.size() + 1);
  EventHandle event = memory->record_event(nullptr, on, stream);
  events_memory_ = memory;
  ready_events_.push_back(event);
  mark_home_current_locked();  // the owner wrote its memory
}

void Storage::note_external_write() {
  StateLock lock(*this);
  mark_home_current_locked();
}

// The home copy is current and the mirror is not (nothing for a storage without a home).
void Storage::mark_home_current_locked() {
  const Side home = home_locked();
  if (home == Side::kHost) {
    host_valid_ = true;
    device_valid_ = false;
  } else if (home == Side::kDevice) {
    device_valid_ = true;
    host_valid_ = false;
  }
}

Storage::Export Storage::begin_export(bool writable, bool allow_read_only, StreamHandle consumer) {
  StateLock lock(*this);
  Export out;
  // The freshest side (residence()), or the side earlier exports pinned.
  out.side = bytes_ != 0 ? residence_locked() : Side::kHost;
  if (exports_ > 0) out.side = export_side_;
  if (out.side == Side::kHost) {
    ensure_host_valid_locked();  // zeros for a buffer never written
    out.data = host_;
    out.read_only = read_only_ || (!host_owned_ && !host_borrowed_ && host_ != nullptr);
  } else {
    TENSORBUF_EXPECTS(device_current_locked(), InvalidArgumentError,
                      "the buffer's exported device copy is stale; sync it to the device first");
    out.data = device_;
    out.device = device_index_;
    out.read_only = read_only_;
  }
  TENSORBUF_EXPECTS(allow_read_only || !out.read_only, InvalidArgumentError,
                    "a read-only buffer (read-only borrow or import, or bytes referenced by "
                    "load_buffer) cannot be exported as a legacy DLManagedTensor, which has no "
                    "read-only flag; use to_dlpack_versioned");
  DeviceMemory* memory = device_memory();
  if (consumer != nullptr && memory != nullptr) {
    // I5.3: the consumer waits on the last write; our next use waits on the consumer's work
    // recorded now.
    const int on = device_index_ >= 0 ? device_index_ : 0;
    if (last_use_ != nullptr) memory->stream_wait(consumer, last_use_);
    ready_events_.reserve(ready_events_.size() + 1);
    ready_events_.push_back(memory->record_event(nullptr, on, consumer));
    events_memory_ = memory;
  }
  out.home = writable && !out.read_only;
  exports_++;
  export_side_ = out.side;
  if (out.home) {
    writable_exports_++;
    // The exported side is the home now; the other side's copy is dropped.
    if (out.side == Side::kHost) {
      device_valid_ = false;
    } else {
      host_valid_ = false;
    }
  }
  return out;
}

void Storage::end_export(bool home) noexcept {
  StateLock lock(*this);
  exports_--;
  if (home) writable_exports_--;
  if (exports_ == 0) export_side_ = Side::kNone;
}

void Storage::require_unpinned(const char* what) const {
  StateLock lock(*this);
  TENSORBUF_EXPECTS(exports_ == 0, InvalidArgumentError,
                    str_cat(what,
                            ": a DLPack export of this buffer is alive, so its memory "
                            "cannot move"));
}

// ---- The aliasing rule of in-place ops ----

Storage::Spans Storage::spans() const {
  StateLock lock(*this);
  return {static_cast<const char*>(host_), static_cast<const char*>(device_), device_index_,
          bytes_};
}

bool Storage::shares_memory_with(const Storage& other) const {
  if (this == &other) return true;
  // Owned host memory that no export pins is nobody else's: no lock on the ops' fast path.
  if (host_only_.load(std::memory_order_acquire) ||
      other.host_only_.load(std::memory_order_acquire)) {
    return false;
  }
  const Spans a = spans();
  const Spans b = other.spans();  // one lock at a time: no lock order to keep
  const auto overlap = [&](const char* x, const char* y) {
    return x != nullptr && y != nullptr && x < y + b.bytes && y < x + a.bytes;
  };
  return overlap(a.host, b.host) ||
         (a.device_index == b.device_index && overlap(a.device, b.device));
}

}  // namespace tensorbuf::core
