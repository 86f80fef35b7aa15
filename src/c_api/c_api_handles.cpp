// The C API's handles: a process-wide table of buffers, each handle value naming a slot and the
// slot's generation. A handle is never dereferenced, so a destroyed one, one whose slot a new
// buffer reuses, and a value that was never a handle are refused the same way: lookup fails.
#include <mutex>
#include <shared_mutex>
#include <utility>
#include <vector>

#include "c_api/c_api_internal.hpp"
#include "core/error_macros.hpp"

namespace tensorbuf::c_api {
namespace {

// A handle's bits: kTag in the top byte (so no small integer and no user-space pointer is a
// handle), the slot below it, the slot's generation in the low 32 bits.
static_assert(sizeof(std::uintptr_t) == 8, "a handle packs a tag, a slot and a generation");
constexpr std::uintptr_t kTag = 0x7b;
constexpr int kTagShift = 56;
constexpr int kSlotShift = 32;
constexpr std::uint32_t kMaxSlots = std::uint32_t{1} << (kTagShift - kSlotShift);

tb_buffer* encode(std::uint32_t slot, std::uint32_t generation) {
  return reinterpret_cast<tb_buffer*>(kTag << kTagShift | std::uintptr_t{slot} << kSlotShift |
                                      generation);
}

struct Decoded {
  bool tagged;
  std::uint32_t slot;
  std::uint32_t generation;
};

Decoded decode(const tb_buffer* handle) {
  const auto bits = reinterpret_cast<std::uintptr_t>(handle);
  return {bits >> kTagShift == kTag,
          static_cast<std::uint32_t>((bits >> kSlotShift) & (kMaxSlots - 1)),
          static_cast<std::uint32_t>(bits)};
}

struct Slot {
  // The generation of the slot's current (or next) handle. Destroy bumps it; a slot whose
  // generation wraps to 0 is retired, so no generation of a slot is ever handed out twice.
  std::uint32_t generation = 1;
  std::shared_ptr<std::optional<TensorBuffer>> buffer;  // null: free, or reserved (NewHandle)
};

class HandleTable {
 public:
  std::uint32_t reserve() {
    std::unique_lock lock(mutex_);
    if (free_.empty()) {
      TENSORBUF_EXPECTS(
          slots_.size() < kMaxSlots, ResourceExhaustedError,
          core::str_cat("the C API's handle table is full (", kMaxSlots, " live buffers)"));
      free_.reserve(slots_.size() + 1);  // release() and destroy() then never allocate
      slots_.emplace_back();
      return static_cast<std::uint32_t>(slots_.size() - 1);
    }
    const std::uint32_t slot = free_.back();
    free_.pop_back();
    return slot;
  }

  void release(std::uint32_t slot) noexcept {
    std::unique_lock lock(mutex_);
    free_.push_back(slot);
  }

  tb_buffer* publish(std::uint32_t slot,
                     std::shared_ptr<std::optional<TensorBuffer>> buffer) noexcept {
    std::unique_lock lock(mutex_);
    slots_[slot].buffer = std::move(buffer);
    return encode(slot, slots_[slot].generation);
  }

  std::shared_ptr<std::optional<TensorBuffer>> find(const tb_buffer* handle, const char* name) {
    const Decoded d = decode(handle);
    std::shared_lock lock(mutex_);
    if (!live(d)) throw_invalid(name);
    return slots_[d.slot].buffer;
  }

  // The buffer leaves the table under the lock and is freed by the caller, after it: its
  // destructor may run a release callback that calls back into the C API.
  std::shared_ptr<std::optional<TensorBuffer>> remove(const tb_buffer* handle, const char* name) {
    const Decoded d = decode(handle);
    std::unique_lock lock(mutex_);
    if (!live(d)) throw_invalid(name);
    Slot& slot = slots_[d.slot];
    std::shared_ptr<std::optional<TensorBuffer>> buffer = std::move(slot.buffer);
    slot.buffer.reset();
    if (++slot.generation != 0) free_.push_back(d.slot);
    return buffer;
  }

 private:
  bool live(const Decoded& d) const {
    return d.tagged && d.slot < slots_.size() && slots_[d.slot].generation == d.generation &&
           slots_[d.slot].buffer != nullptr;
  }

  [[noreturn]] static void throw_invalid(const char* name) {
    throw InvalidArgumentError(core::str_cat(name, " is a destroyed or invalid handle"));
  }

  std::shared_mutex mutex_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_;  // capacity >= slots_.size()
};

// Never destroyed: handles may be used or destroyed by other threads and static destructors
// while the process exits.
HandleTable& table() {
  static HandleTable* const instance = new HandleTable;
  return *instance;
}

}  // namespace

std::shared_ptr<const TensorBuffer> buffer_of(const tb_buffer* handle, const char* name) {
  require(handle, name);
  std::shared_ptr<std::optional<TensorBuffer>> buffer = table().find(handle, name);
  const TensorBuffer* value = &**buffer;
  return std::shared_ptr<const TensorBuffer>(std::move(buffer), value);
}

std::shared_ptr<TensorBuffer> buffer_of(tb_buffer* handle, const char* name) {
  require(handle, name);
  std::shared_ptr<std::optional<TensorBuffer>> buffer = table().find(handle, name);
  TensorBuffer* value = &**buffer;
  return std::shared_ptr<TensorBuffer>(std::move(buffer), value);
}

void destroy_handle(tb_buffer* handle, const char* name) {
  require(handle, name);
  table().remove(handle, name);  // the buffer is freed here, outside the table's lock
}

NewHandle::NewHandle() : holder_(std::make_shared<std::optional<TensorBuffer>>()) {
  slot_ = table().reserve();
}

NewHandle::~NewHandle() {
  if (!published_) table().release(slot_);
}

void NewHandle::set(TensorBuffer buffer) noexcept { *holder_ = std::move(buffer); }

tb_buffer* NewHandle::publish() noexcept {
  published_ = true;
  return table().publish(slot_, std::move(holder_));
}

}  // namespace tensorbuf::c_api
