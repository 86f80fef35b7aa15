// What a backend derives from a Processor's parameters alone (the CPU's 8-bit table of a chain,
// its check of the division-free normalize) and keeps for every later run: each is built by the
// first run that needs it, once whatever the threads, and then read without a lock, so runs of
// one Processor on many threads share it. Single ops and plans without a Processor carry none
// (ProcessPlan::memos null) and derive it per call.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

// A backend's derived data; the backend defines what it holds.
class ProcessMemo {
 public:
  virtual ~ProcessMemo() = default;
};

enum class ProcessMemoKind { kReciprocals, kTable };

class ProcessMemos {
 public:
  // The memo of (the input dtype, kind): make() -> std::unique_ptr<Memo> on the first call, the
  // same object after it. make() runs under the lock (concurrent first runs wait for it); if it
  // throws, nothing is kept and the next call tries again.
  template <class Memo, class Make>
  const Memo& get(DataType in, ProcessMemoKind kind, const Make& make) {
    std::atomic<const ProcessMemo*>& slot = slots_[slot_of(in, kind)];
    if (const ProcessMemo* memo = slot.load(std::memory_order_acquire)) {
      return static_cast<const Memo&>(*memo);
    }
    const std::lock_guard<std::mutex> lock(mutex_);
    if (const ProcessMemo* memo = slot.load(std::memory_order_relaxed)) {
      return static_cast<const Memo&>(*memo);
    }
    std::unique_ptr<Memo> made = make();
    owned_.reserve(owned_.size() + 1);  // so the push below cannot throw after the release
    const Memo& memo = *made;
    owned_.push_back(std::move(made));
    slot.store(&memo, std::memory_order_release);
    return memo;
  }

 private:
  static constexpr std::size_t kTypes = static_cast<std::size_t>(DataType::kFloat64) + 1;
  static std::size_t slot_of(DataType in, ProcessMemoKind kind) {
    return static_cast<std::size_t>(kind) * kTypes + static_cast<std::size_t>(in);
  }

  std::array<std::atomic<const ProcessMemo*>, 2 * kTypes> slots_{};
  std::mutex mutex_;
  std::vector<std::unique_ptr<ProcessMemo>> owned_;
};

}  // namespace tensorbuf::core
