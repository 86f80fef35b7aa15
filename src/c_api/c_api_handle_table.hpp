// The C API's handle tables (c_api_handles.cpp): one process-wide table per handle type
// (tb_buffer, tb_processor), each handle value naming a slot and the slot's generation. A
// handle is never dereferenced, so a destroyed one, one whose slot a new object reuses, a value
// that was never a handle, and a handle of the other type are refused the same way: lookup
// fails.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <utility>
#include <vector>

#include "core/error_macros.hpp"
#include "tensorbuf/errors.hpp"

namespace tensorbuf::c_api {

// A handle's bits: its type's tag in the top byte (so no small integer and no user-space pointer
// is a handle, and a handle of one type is never taken for another's), the slot below it, the
// slot's generation in the low 32 bits.
enum class HandleKind : std::uint8_t { kBuffer = 0x7b, kProcessor = 0x7c };

// The C type of each kind's handles, as messages name it.
constexpr const char* handle_type_name(HandleKind kind) {
  return kind == HandleKind::kBuffer ? "tb_buffer" : "tb_processor";
}

template <class Held>
class HandleTable {
 public:
  static_assert(sizeof(std::uintptr_t) == 8, "a handle packs a tag, a slot and a generation");
  static constexpr int kTagShift = 56;
  static constexpr int kSlotShift = 32;
  static constexpr std::uint32_t kMaxSlots = std::uint32_t{1} << (kTagShift - kSlotShift);

  // `what`: the objects the table holds, plural, for the message of a full table.
  HandleTable(HandleKind kind, const char* what) : kind_(kind), what_(what) {}

  std::uint32_t reserve() {
    std::unique_lock lock(mutex_);
    if (free_.empty()) {
      TENSORBUF_EXPECTS(
          slots_.size() < kMaxSlots, ResourceExhaustedError,
          core::str_cat("the C API's handle table is full (", kMaxSlots, " live ", what_, ")"));
      free_.reserve(slots_.size() + 1);  // release() and remove() then never allocate
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

  std::uintptr_t publish(std::uint32_t slot, std::shared_ptr<Held> held) noexcept {
    std::unique_lock lock(mutex_);
    slots_[slot].held = std::move(held);
    return std::uintptr_t{static_cast<std::uint8_t>(kind_)} << kTagShift |
           std::uintptr_t{slot} << kSlotShift | slots_[slot].generation;
  }

  std::shared_ptr<Held> find(std::uintptr_t handle, const char* name) {
    const Decoded d = decode(handle, name);
    std::shared_lock lock(mutex_);
    if (!live(d)) throw_invalid(name);
    return slots_[d.slot].held;
  }

  // The object leaves the table under the lock and is freed by the caller, after it: a
  // buffer's destructor may run a release callback that calls back into the C API.
  std::shared_ptr<Held> remove(std::uintptr_t handle, const char* name) {
    const Decoded d = decode(handle, name);
    std::unique_lock lock(mutex_);
    if (!live(d)) throw_invalid(name);
    Slot& slot = slots_[d.slot];
    std::shared_ptr<Held> held = std::move(slot.held);
    slot.held.reset();
    if (++slot.generation != 0) free_.push_back(d.slot);
    return held;
  }

 private:
  struct Slot {
    // The generation of the slot's current (or next) handle. remove() bumps it; a slot whose
    // generation wraps to 0 is retired, so no generation of a slot is ever handed out twice.
    std::uint32_t generation = 1;
    std::shared_ptr<Held> held;  // null: free, or reserved
  };

  struct Decoded {
    std::uint32_t slot;
    std::uint32_t generation;
  };

  // The slot and generation of a handle of this table's kind; a handle of the other kind is
  // refused by name, any other value as invalid.
  Decoded decode(std::uintptr_t bits, const char* name) const {
    const auto tag = static_cast<std::uint8_t>(bits >> kTagShift);
    if (tag != static_cast<std::uint8_t>(kind_)) {
      for (const HandleKind other : {HandleKind::kBuffer, HandleKind::kProcessor}) {
        if (tag == static_cast<std::uint8_t>(other)) {
          throw InvalidArgumentError(core::str_cat(name, " is a ", handle_type_name(other),
                                                   " handle, not a ", handle_type_name(kind_)));
        }
      }
      throw_invalid(name);
    }
    return {static_cast<std::uint32_t>((bits >> kSlotShift) & (kMaxSlots - 1)),
            static_cast<std::uint32_t>(bits)};
  }

  bool live(const Decoded& d) const {
    return d.slot < slots_.size() && slots_[d.slot].generation == d.generation &&
           slots_[d.slot].held != nullptr;
  }

  [[noreturn]] static void throw_invalid(const char* name) {
    throw InvalidArgumentError(core::str_cat(name, " is a destroyed or invalid handle"));
  }

  const HandleKind kind_;
  const char* const what_;
  std::shared_mutex mutex_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_;  // capacity >= slots_.size()
};

}  // namespace tensorbuf::c_api
