// Storage: up to two copies of a buffer's bytes (host, device), a validity bit for each, and
// the lazy-sync state machine between them (DESIGN.md, "TensorBuffer and lazy sync"). A
// borrowed storage's home copy is caller memory (docs/interop.md): it is never freed here, the
// other side is a mirror that is not trusted across calls, and the caller's release runs once
// when the last owner (a TensorBuffer or a DLPack export) lets go.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "core/device_memory.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

// Which copy of the bytes is the home (the truth the owner reads and writes), if any.
enum class Side : unsigned char { kNone, kHost, kDevice };

// Caller memory handed to Storage::borrow (validated by the caller).
struct BorrowedMemory {
  void* data = nullptr;
  std::size_t bytes = 0;
  Side side = Side::kHost;
  int device = 0;  // the CUDA device of device memory
  bool read_only = false;
  bool cache_mirror = false;
  StreamHandle ready_stream = nullptr;  // the first use waits on it (event)
  std::function<void(Stream)> release;  // called once, from the destructor
  // Before release runs, this stream is made to wait for tensorbuf's last use (a DLPack
  // import's producer stream, I5.2); null: the release gets the last-use stream only.
  bool order_release_on_ready_stream = false;
};

// Every method gives the strong guarantee: if it throws (an allocation or a copy failed, a
// read-only or moved-memory rule was broken), the contents, pointers and validity bits are as
// they were. Const methods may sync (copy to the stale side) and are safe to call concurrently;
// a non-const call must not run concurrently with any other call.
class Storage {
 public:
  // Owned host memory (pinned when a device memory is active), zero-filled when `zero`.
  static std::unique_ptr<Storage> allocate(std::size_t bytes, bool zero);
  // No memory on either side and no valid side: the first write allocates. Shared from the
  // start (every op's output): the storage and its count are one allocation, not two.
  static std::shared_ptr<Storage> unallocated(std::size_t bytes);
  // References caller memory without copying; the first write copies it (copy-on-write).
  static std::unique_ptr<Storage> reference(const void* bytes, std::size_t size);
  // Caller memory as the home copy, written in place. Throws (and never calls `release`) when
  // the device memory is unusable or the ready event cannot be recorded. Shared from the start:
  // once it holds `release`, no allocation is left to fail and run it early.
  static std::shared_ptr<Storage> borrow(BorrowedMemory memory);

  // Only Storage makes a Key: the public constructor below is for std::make_shared alone.
  class Key {
    friend class Storage;
    Key() = default;
  };
  Storage(Key, std::size_t bytes) : Storage(bytes) {}
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  // Frees owned memory in stream order, never waits for the device (except for an upload still
  // reading borrowed host memory), then runs a borrowed storage's release.
  ~Storage();

  // Unsynchronized: a shrink() must happen-before any later bytes() on another thread.
  std::size_t bytes() const { return bytes_; }
  // Lowers the size to the first `bytes` bytes, in place: the memory stays allocated at its
  // size (same pointers, nothing copied); later syncs copy only the first `bytes`. For an op's
  // output written on the device with more room than it used (StringTensor's bounded chars).
  // InternalError, with nothing changed, when `bytes` exceeds the size, the memory is borrowed
  // or exported, or a host copy exists (its block would be freed with the wrong size).
  void shrink(std::size_t bytes);

  // Host side. `host_read` copies from the device if the host copy is stale.
  const void* host_read() const;
  // `keep_contents`: sync first (mutable); otherwise the caller overwrites everything. Copies
  // referenced caller memory into owned memory first, waits for an in-flight upload that
  // still reads the host copy, and marks the device copy stale. InvalidArgumentError when
  // read-only.
  void* host_write(bool keep_contents);

  // Device side, for work enqueued on `stream` of `device`. A read uploads a stale device
  // copy; work on a stream other than the last one waits (on the device) for the last use.
  // After enqueueing its work the caller must call `finish_device_use(stream)`.
  const void* device_read(int device, StreamHandle stream) const;
  void* device_write(int device, StreamHandle stream, bool keep_contents);
  void finish_device_use(StreamHandle stream) const;

  // After a write on the mirror side of a buffer with a home: copies the mirror to the home
  // (an upload in stream order, or a download with a host wait). Nothing otherwise.
  void write_back_home();

  // The caller's view of validity: a mirror not trusted across calls reads as stale.
  bool host_valid() const;
  bool device_valid() const;
  // Where ops run by default: the home while it is current, else the device side if only it
  // is current, else the host.
  Side residence() const;
  // The CUDA device holding the device copy, or -1 when there is none.
  int device_index() const;
  // True while the host copy is caller memory referenced by load_buffer.
  bool references_caller_memory() const;

  // Interop (docs/interop.md, I1).
  bool is_borrowed() const { return borrowed_; }
  bool is_read_only() const { return read_only_; }
  // The next use waits on `stream`'s work so far (an event on `device`; the host never waits
  // unless the use is on the host).
  void wait_for(StreamHandle stream, int device);
  // The owner wrote its memory: the home copy is current, the mirror is dropped.
  void note_external_write();
  // Frees the copy on `side` (and, for kDevice, only when it lives on `device`).
  void evict(Side side, int device);
  std::size_t bytes_on(Side side, int device) const;

  // DLPack export (I2): pins the freshest side (its pointer cannot move while exports live)
  // and, when writable, makes it the home. `consumer` (may be null) waits on the last write.
  // InvalidArgumentError, with nothing changed, when the memory is read-only and
  // `allow_read_only` is false (the legacy form has no read-only flag).
  struct Export {
    void* data = nullptr;
    Side side = Side::kHost;
    int device = 0;
    bool read_only = false;  // the exported memory must not be written by the consumer
    bool home = false;       // a writable export: pass to end_export
  };
  Export begin_export(bool writable, bool allow_read_only, StreamHandle consumer);
  void end_export(bool home) noexcept;
  // Throws InvalidArgumentError naming `what` when an export pins this storage's memory.
  void require_unpinned(const char* what) const;

  // True when this storage and `other` have bytes in common on some side: the same storage,
  // caller memory borrowed twice (two borrows of one array, overlapping or not at the same
  // address), or an export borrowed back. In-place ops read such inputs before any write.
  bool shares_memory_with(const Storage& other) const;

 private:
  explicit Storage(std::size_t bytes) : bytes_(bytes) {}
  // Holds mutex_; on release, sets host_only_ from the state it leaves.
  class StateLock;
  // The memory each side occupies now (null where none), read under the lock.
  struct Spans {
    const char* host = nullptr;
    const char* device = nullptr;
    int device_index = -1;
    std::size_t bytes = 0;
  };
  Spans spans() const;
  // The helpers below expect mutex_ held.
  bool host_only_locked() const;
  Side home_locked() const;
  Side residence_locked() const;
  bool mirror_trusted_locked(Side mirror) const;
  bool host_current_locked() const;
  bool device_current_locked() const;
  void require_writable_locked() const;
  void ensure_host_valid_locked() const;
  void ensure_device_valid_locked(int device, StreamHandle stream, bool copy) const;
  void wait_for_streams_locked(StreamHandle stream) const;
  void consume_ready_locked(StreamHandle stream) const;
  void mark_home_current_locked();
  StreamHandle download_stream_locked() const;
  void release_device_locked() const;
  void release_borrowed() noexcept;

  std::size_t bytes_;  // lowered only by shrink()
  mutable std::mutex mutex_;
  // Set (by StateLock) while the host copy is owned, current and all there is to care about:
  // no home elsewhere, no export, nothing to wait for, writable. host_read and write_back_home
  // then need no lock, nor does host_write while the device copy is also stale: the lock-free
  // fast path of every CPU op on ordinary buffers (a lock pair per buffer was ~10% of a small
  // op). Const methods never clear what it stands for, and non-const ones run alone.
  mutable std::atomic<bool> host_only_{false};
  mutable void* host_ = nullptr;
  mutable bool host_owned_ = false;            // false while host_ is caller memory (or null)
  bool host_borrowed_ = false;                 // host_ is the borrowed home (written in place)
  mutable DeviceMemory* host_allocator_ = nullptr;  // null: aligned heap memory
  mutable void* device_ = nullptr;
  mutable std::size_t device_block_bytes_ = 0;  // device_'s allocated size (>= bytes_)
  bool device_borrowed_ = false;               // device_ is the borrowed home (never freed)
  mutable int device_index_ = -1;
  mutable DeviceMemory* device_memory_ = nullptr;
  mutable bool host_valid_ = false;
  mutable bool device_valid_ = false;
  mutable EventHandle last_use_ = nullptr;     // recorded after the last device-side use
  mutable StreamHandle last_stream_ = nullptr;
  mutable bool upload_in_flight_ = false;      // an upload may still read host_

  // Borrowing and exports.
  bool borrowed_ = false;
  bool read_only_ = false;
  bool cache_mirror_ = false;
  int exports_ = 0;                            // live DLPack exports
  int writable_exports_ = 0;
  Side export_side_ = Side::kNone;
  mutable std::vector<EventHandle> ready_events_;  // the next use waits on these
  DeviceMemory* events_memory_ = nullptr;          // the memory that recorded them
  std::function<void(Stream)> release_;
  StreamHandle release_order_stream_ = nullptr;
  bool order_release_ = false;
};

class Storage::StateLock {
 public:
  explicit StateLock(const Storage& storage) : storage_(storage), lock_(storage.mutex_) {}
  StateLock(const StateLock&) = delete;
  StateLock& operator=(const StateLock&) = delete;
  ~StateLock() {  // before lock_ is released
    storage_.host_only_.store(storage_.host_only_locked(), std::memory_order_release);
  }

 private:
  const Storage& storage_;
  std::lock_guard<std::mutex> lock_;
};

}  // namespace tensorbuf::core
