#include "core/storage.hpp"

#include <cstring>
#include <utility>

#include "core/error_macros.hpp"
#include "core/host_allocator.hpp"
#include "core/stats_counters.hpp"

namespace tensorbuf::core {
namespace {

struct HostBlock {
  void* ptr = nullptr;
  DeviceMemory* allocator = nullptr;
};

// Pinned memory from the active device memory when there is one, else cached host memory.
HostBlock allocate_host_block(std::size_t bytes) {
  HostBlock block;
  block.allocator = device_memory();
  if (block.allocator != nullptr) {
    block.ptr = block.allocator->allocate_host(bytes);
    return block;
  }
  block.ptr = allocate_host_memory(bytes);
  return block;
}

void free_host_block(void* ptr, std::size_t bytes, DeviceMemory* allocator,
                     EventHandle pending) noexcept {
  if (ptr == nullptr) return;
  if (allocator != nullptr) {
    allocator->free_host(ptr, bytes, pending);
  } else {
    free_host_memory(ptr, bytes);
  }
}

}  // namespace

std::unique_ptr<Storage> Storage::allocate(std::size_t bytes, bool zero) {
  std::unique_ptr<Storage> storage(new Storage(bytes));
  storage->host_valid_ = true;
  if (bytes == 0) return storage;
  HostBlock block = allocate_host_block(bytes);
  if (zero) std::memset(block.ptr, 0, bytes);
  storage->host_ = block.ptr;
  storage->host_allocator_ = block.allocator;
  storage->host_owned_ = true;
  return storage;
}

std::shared_ptr<Storage> Storage::unallocated(std::size_t bytes) {
  std::shared_ptr<Storage> storage = std::make_shared<Storage>(Key{}, bytes);
  storage->host_valid_ = bytes == 0;
  return storage;
}

std::unique_ptr<Storage> Storage::reference(const void* bytes, std::size_t size) {
  std::unique_ptr<Storage> storage(new Storage(size));
  storage->host_valid_ = true;
  storage->host_ = size == 0 ? nullptr : const_cast<void*>(bytes);
  storage->host_owned_ = false;  // never written through: host_write copies first
  return storage;
}

Storage::~Storage() {
  const StreamHandle last_stream = last_stream_;
  if (borrowed_) release_borrowed();
  if (events_memory_ != nullptr) {
    for (EventHandle event : ready_events_) events_memory_->destroy_event(event);
  }
  if (host_owned_) {
    free_host_block(host_, bytes_, host_allocator_, upload_in_flight_ ? last_use_ : nullptr);
  }
  release_device_locked();
  if (release_) {
    try {
      release_(Stream{last_stream});
    } catch (...) {
      // A release must not throw (docs/interop.md); a destructor cannot report it.
    }
  }
}

void Storage::release_device_locked() const {
  if (device_memory_ == nullptr) return;
  if (device_ != nullptr && !device_borrowed_) {
    device_memory_->free_device(device_, device_block_bytes_, device_index_, last_stream_);
  }
  if (last_use_ != nullptr) device_memory_->destroy_event(last_use_);
  device_ = nullptr;
  last_use_ = nullptr;
  last_stream_ = nullptr;
  device_valid_ = false;
  upload_in_flight_ = false;
  device_index_ = -1;
  device_memory_ = nullptr;
}

void Storage::ensure_host_valid_locked() const {
  consume_ready_locked(home_locked() == Side::kDevice ? download_stream_locked() : nullptr);
  if (host_current_locked() || bytes_ == 0) {
    host_valid_ = true;
    return;
  }
  if (!device_valid_) {
    // Never written (an unallocated output read before its first write): reads as zeros.
    HostBlock zeros = allocate_host_block(bytes_);
    std::memset(zeros.ptr, 0, bytes_);
    host_ = zeros.ptr;
    host_allocator_ = zeros.allocator;
    host_owned_ = true;
    host_valid_ = true;
    return;
  }
  // Only the device copy is current: download it into (possibly new) owned host memory.
  HostBlock fresh;
  if (!(host_owned_ || host_borrowed_) || host_ == nullptr) fresh = allocate_host_block(bytes_);
  void* target = fresh.ptr != nullptr ? fresh.ptr : host_;
  try {
    device_memory_->copy_device_to_host(target, device_, bytes_, device_index_,
                                        download_stream_locked());
  } catch (...) {
    free_host_block(fresh.ptr, bytes_, fresh.allocator, nullptr);
    throw;
  }
  StatsCounters& counters = stats_counters();
  counters.device_to_host_copies++;
  counters.bytes_device_to_host += static_cast<std::int64_t>(bytes_);
  if (fresh.ptr != nullptr) {
    host_ = fresh.ptr;
    host_allocator_ = fresh.allocator;
    host_owned_ = true;
  }
  host_valid_ = true;
  upload_in_flight_ = false;  // the download waited for the stream
}

const void* Storage::host_read() const {
  if (host_only_.load(std::memory_order_acquire)) return host_;
  StateLock lock(*this);
  ensure_host_valid_locked();
  return host_;
}

void* Storage::host_write(bool keep_contents) {
  // Nothing to sync, copy, wait for or mark stale (and no other call runs meanwhile).
  if (host_only_.load(std::memory_order_acquire) && !device_valid_ && !upload_in_flight_) {
    return host_;
  }
  StateLock lock(*this);
  require_writable_locked();
  if (bytes_ == 0) {
    host_valid_ = true;
    device_valid_ = false;
    return nullptr;
  }
  if (keep_contents) {
    ensure_host_valid_locked();
  } else {
    consume_ready_locked(home_locked() == Side::kDevice ? download_stream_locked() : nullptr);
  }
  if (!host_owned_ && !host_borrowed_) {
    // Copy-on-write of caller memory (or first host allocation after device-only use).
    TENSORBUF_EXPECTS(exports_ == 0 || export_side_ != Side::kHost, InvalidArgumentError,
                      "a DLPack export pins this buffer's host memory; writing it would move it");
    HostBlock fresh = allocate_host_block(bytes_);
    if (keep_contents && host_ != nullptr) std::memcpy(fresh.ptr, host_, bytes_);
    host_ = fresh.ptr;
    host_allocator_ = fresh.allocator;
    host_owned_ = true;
  }
  if (upload_in_flight_) {
    device_memory_->host_wait(last_use_);  // an upload may still be reading host_
    upload_in_flight_ = false;
  }
  host_valid_ = true;
  device_valid_ = false;
  return host_;
}

void Storage::wait_for_streams_locked(StreamHandle stream) const {
  if (last_use_ != nullptr && stream != last_stream_)
    device_memory_->stream_wait(stream, last_use_);
}

void Storage::ensure_device_valid_locked(int device, StreamHandle stream, bool copy) const {
  DeviceMemory* memory = device_memory();
  TENSORBUF_EXPECTS(memory != nullptr, UnavailableError,
                    "no usable CUDA device for a device copy of the buffer");
  consume_ready_locked(stream);
  if (device_ != nullptr && device_index_ != device) {
    TENSORBUF_EXPECTS(!device_borrowed_ && !(exports_ > 0 && export_side_ == Side::kDevice),
                      InvalidArgumentError,
                      str_cat("the buffer's memory is pinned on cuda:", device_index_,
                              " (borrowed or exported); it cannot be used on cuda:", device));
    // Moving to another device goes through the host.
    ensure_host_valid_locked();
    release_device_locked();
  }
  if (device_current_locked() && device_ != nullptr) {
    wait_for_streams_locked(stream);
    return;
  }
  if (bytes_ == 0) {
    device_valid_ = true;
    return;
  }
  void* fresh = nullptr;
  if (device_ == nullptr) fresh = memory->allocate_device(bytes_, device, stream);
  void* target = fresh != nullptr ? fresh : device_;
  if (copy) {
    try {
      ensure_host_valid_locked();  // zeros for a buffer never written
      if (fresh == nullptr) wait_for_streams_locked(stream);
      memory->copy_host_to_device(target, host_, bytes_, device, stream);
    } catch (...) {
      if (fresh != nullptr) memory->free_device(fresh, bytes_, device, stream);
      throw;
    }
    StatsCounters& counters = stats_counters();
    counters.host_to_device_copies++;
    counters.bytes_host_to_device += static_cast<std::int64_t>(bytes_);
    upload_in_flight_ = true;
  } else if (fresh == nullptr) {
    wait_for_streams_locked(stream);
  }
  if (fresh != nullptr) {
    device_ = fresh;
    device_block_bytes_ = bytes_;
    device_index_ = device;
    device_memory_ = memory;
  }
  device_valid_ = true;
}

const void* Storage::device_read(int device, StreamHandle stream) const {
  StateLock lock(*this);
  ensure_device_valid_locked(device, stream, /*copy=*/true);
  return device_;
}

void* Storage::device_write(int device, StreamHandle stream, bool keep_contents) {
  StateLock lock(*this);
  require_writable_locked();
  ensure_device_valid_locked(device, stream, keep_contents);
  host_valid_ = bytes_ == 0;
  return device_;
}

void Storage::finish_device_use(StreamHandle stream) const {
  StateLock lock(*this);
  if (device_memory_ == nullptr) return;
  last_use_ = device_memory_->record_event(last_use_, device_index_, stream);
  last_stream_ = stream;
}

bool Storage::host_valid() const {
  StateLock lock(*this);
  return host_current_locked();
}

bool Storage::device_valid() const {
  StateLock lock(*this);
  return device_current_locked();
}

int Storage::device_index() const {
  StateLock lock(*this);
  return device_index_;
}

bool Storage::references_caller_memory() const {
  StateLock lock(*this);
  return !host_owned_ && host_ != nullptr;
}

// ---- Homes and mirrors (docs/interop.md, I1) ----

bool Storage::host_only_locked() const {
  return bytes_ > 0 && host_valid_ && host_owned_ && home_locked() == Side::kNone &&
         exports_ == 0 && ready_events_.empty() && !read_only_;
}

Side Storage::home_locked() const {
  if (host_borrowed_) return Side::kHost;
  if (device_borrowed_) return Side::kDevice;
  return writable_exports_ > 0 ? export_side_ : Side::kNone;
}

Side Storage::residence_locked() const {
  const Side home = home_locked();
  if (home == Side::kDevice && device_valid_) return Side::kDevice;
  if (home == Side::kHost && host_valid_) return Side::kHost;
  return !host_current_locked() && device_current_locked() ? Side::kDevice : Side::kHost;
}

Side Storage::residence() const {
  StateLock lock(*this);
  return residence_locked();
}

// A mirror of a home is trusted only while the home is stale (the mirror is then the truth)
// or the owner promised to report its writes (cache_mirror).
bool Storage::mirror_trusted_locked(Side mirror) const {
  const Side home = home_locked();
  if (home == Side::kNone || home == mirror || cache_mirror_) return true;
  const bool home_valid = home == Side::kHost ? host_valid_ : device_valid_;
  return !home_valid;
}

bool Storage::host_current_locked() const {
  return host_valid_ && mirror_trusted_locked(Side::kHost);
}

bool Storage::device_current_locked() const {
  return device_valid_ && mirror_trusted_locked(Side::kDevice);
}

void Storage::require_writable_locked() const {
  TENSORBUF_EXPECTS(!read_only_, InvalidArgumentError,
                    "the buffer is read-only (borrowed or imported read-only memory): tensorbuf "
                    "does not write it");
}

// Waits for the producer streams the owner named (wait_for, ready_stream): on `stream`, or
// on the host when it is null.
void Storage::consume_ready_locked(StreamHandle stream) const {
  if (ready_events_.empty()) return;
  for (EventHandle event : ready_events_) {
    if (stream != nullptr) {
      events_memory_->stream_wait(stream, event);
    } else {
      events_memory_->host_wait(event);
    }
  }
  for (EventHandle event : ready_events_) events_memory_->destroy_event(event);
  ready_events_.clear();
}

StreamHandle Storage::download_stream_locked() const {
  if (last_stream_ != nullptr || device_memory_ == nullptr) return last_stream_;
  return device_memory_->default_stream(device_index_);
}

void Storage::write_back_home() {
  if (host_only_.load(std::memory_order_acquire)) return;  // no home
  StateLock lock(*this);
  const Side home = home_locked();
  if (bytes_ == 0 || home == Side::kNone) return;
  if (home == Side::kHost && !host_valid_ && device_valid_) {
    ensure_host_valid_locked();  // downloads into the home memory itself
    return;
  }
  if (home != Side::kDevice || device_valid_ || !host_valid_) return;
  const StreamHandle stream = download_stream_locked();
  consume_ready_locked(stream);
  device_memory_->copy_host_to_device(device_, host_, bytes_, device_index_, stream);
  StatsCounters& counters = stats_counters();
  counters.host_to_device_copies++;
  counters.bytes_host_to_device += static_cast<std::int64_t>(bytes_);
  upload_in_flight_ = true;
  device_valid_ = true;
  last_use_ = device_memory_->record_event(last_use_, device_index_, stream);
  last_stream_ = stream;
}

void Storage::evict(Side side, int device) {
  StateLock lock(*this);
  const bool pinned = exports_ > 0 && export_side_ == side;
  if (side == Side::kHost) {
    if (host_ == nullptr && !host_valid_) return;
    TENSORBUF_EXPECTS(!host_borrowed_ && !pinned, InvalidArgumentError,
                      "the host copy is the buffer's home (borrowed or exported memory); only "
                      "its mirror can be evicted");
    TENSORBUF_EXPECTS(bytes_ == 0 || device_current_locked(), InvalidArgumentError,
                      "the device copy is not valid: evicting the host copy would lose the data");
    if (upload_in_flight_) device_memory_->host_wait(last_use_);  // still read by an upload
    if (host_owned_) free_host_block(host_, bytes_, host_allocator_, nullptr);
    host_ = nullptr;
    host_owned_ = false;
    host_valid_ = false;
    upload_in_flight_ = false;
    return;
  }
  if (device_index_ != device || (device_ == nullptr && !device_valid_)) return;
  TENSORBUF_EXPECTS(!device_borrowed_ && !pinned, InvalidArgumentError,
                    "the device copy is the buffer's home (borrowed or exported memory); only "
                    "its mirror can be evicted");
  TENSORBUF_EXPECTS(bytes_ == 0 || host_current_locked(), InvalidArgumentError,
                    "the host copy is not valid: evicting the device copy would lose the data");
  if (upload_in_flight_) device_memory_->host_wait(last_use_);  // the host copy is still read
  release_device_locked();
}

std::size_t Storage::bytes_on(Side side, int device) const {
  StateLock lock(*this);
  if (side == Side::kHost) return host_ != nullptr ? bytes_ : 0;
  return device_ != nullptr && device_index_ == device ? device_block_bytes_ : 0;
}

void Storage::shrink(std::size_t bytes) {
  StateLock lock(*this);
  TENSORBUF_EXPECTS(bytes <= bytes_ && !borrowed_ && exports_ == 0 && host_ == nullptr,
                    InternalError,
                    str_cat("Storage::shrink to ", bytes, " of ", bytes_,
                            " bytes needs unborrowed, unexported memory without a host copy"));
  bytes_ = bytes;
}

}  // namespace tensorbuf::core
