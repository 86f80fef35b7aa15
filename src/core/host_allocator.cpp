#include "core/host_allocator.hpp"

#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <utility>

#include "core/error_macros.hpp"
#include "core/stats_counters.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace tensorbuf::core {
namespace {

constexpr std::size_t kAlignment = 64;
constexpr std::size_t kHugePage = std::size_t{2} << 20;

// The cap on cached bytes: TENSORBUF_HOST_CACHE_MB if set, else 2 GiB.
std::size_t cache_cap() {
  static const std::size_t cap = [] {
    if (const char* env = std::getenv("TENSORBUF_HOST_CACHE_MB")) {
      return static_cast<std::size_t>(std::strtoull(env, nullptr, 10)) << 20;
    }
    return std::size_t{2} << 30;
  }();
  return cap;
}

std::size_t rounded_size(std::size_t bytes) {
  if (bytes < kLargeBlock) return (bytes + kAlignment - 1) / kAlignment * kAlignment;
  return (bytes + kHugePage - 1) / kHugePage * kHugePage;
}

class HostCache {
 public:
  void* take(std::size_t rounded) {
    std::lock_guard lock(mutex_);
    auto it = free_.find(rounded);
    if (it == free_.end()) return nullptr;
    void* ptr = it->second;
    free_.erase(it);
    cached_ -= rounded;
    return ptr;
  }

  bool give(void* ptr, std::size_t rounded) {
    std::lock_guard lock(mutex_);
    if (cached_ + rounded > cache_cap()) return false;
    free_.emplace(rounded, ptr);
    cached_ += rounded;
    return true;
  }

  std::size_t cached() {
    std::lock_guard lock(mutex_);
    return cached_;
  }

 private:
  std::mutex mutex_;
  std::multimap<std::size_t, void*> free_;
  std::size_t cached_ = 0;
};

// Never destroyed: buffers with static storage duration may free into it at exit, and what it
// holds stays reachable (not a leak).
HostCache& cache() {
  static HostCache* instance = new HostCache;
  return *instance;
}

// Small blocks: each thread keeps the last kSmallSlots blocks of up to kSmallBlock bytes it
// freed, for its next allocation of the same rounded size. An op called in a loop frees its
// last output and allocates the next one of the same size; through aligned_alloc / free that
// pair cost ~15% of a 2^10-element scatter out of place (glibc's memalign splits its chunk and
// free consolidates it again). Off under AddressSanitizer, which must see every free.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSmallCache = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSmallCache = false;
#else
constexpr bool kSmallCache = true;
#endif
#else
constexpr bool kSmallCache = true;
#endif
constexpr int kSmallSlots = 4;

struct SmallSlot {
  void* ptr;
  std::size_t rounded;
};
// Trivially destructible, so still usable while the thread exits: once its flush (below) has
// run, `closed` sends later frees (buffers destroyed by later thread_local or static
// destructors) straight to free().
struct SmallCache {
  SmallSlot slots[kSmallSlots];
  int next;  // the slot the next block replaces when all are taken
  bool closed;
};
thread_local SmallCache t_small{};

struct SmallCacheFlush {
  bool armed = false;
  ~SmallCacheFlush() {
    for (SmallSlot& slot : t_small.slots) std::free(slot.ptr);
    t_small = SmallCache{};
    t_small.closed = true;
  }
};
thread_local SmallCacheFlush t_small_flush;

void* take_small(std::size_t rounded) {
  for (SmallSlot& slot : t_small.slots) {
    if (slot.ptr != nullptr && slot.rounded == rounded) return std::exchange(slot.ptr, nullptr);
  }
  return nullptr;
}

bool give_small(void* ptr, std::size_t rounded) {
  if (t_small.closed) return false;
  t_small_flush.armed = true;  // constructs it, so that the thread's exit frees the slots
  SmallSlot* slot = nullptr;
  for (SmallSlot& s : t_small.slots) {
    if (s.ptr == nullptr) {
      slot = &s;
      break;
    }
  }
  if (slot == nullptr) {
    slot = &t_small.slots[t_small.next];
    t_small.next = (t_small.next + 1) % kSmallSlots;
    std::free(slot->ptr);
  }
  *slot = SmallSlot{ptr, rounded};
  return true;
}

}  // namespace

void* allocate_host_memory(std::size_t bytes) {
  const std::size_t rounded = rounded_size(bytes);
  if (rounded >= kLargeBlock) {
    if (void* reused = cache().take(rounded)) return reused;
  } else if (kSmallCache && rounded <= kSmallBlock) {
    if (void* reused = take_small(rounded)) return reused;
  }
  void* ptr = std::aligned_alloc(rounded >= kLargeBlock ? kHugePage : kAlignment, rounded);
  TENSORBUF_EXPECTS(ptr != nullptr, ResourceExhaustedError,
                    str_cat("cannot allocate ", bytes, " bytes of host memory"));
  stats_counters().host_allocations++;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (rounded >= kLargeBlock) madvise(ptr, rounded, MADV_HUGEPAGE);  // a hint; errors ignored
#endif
  return ptr;
}

void free_host_memory(void* ptr, std::size_t bytes) noexcept {
  if (ptr == nullptr) return;
  const std::size_t rounded = rounded_size(bytes);
  if (rounded >= kLargeBlock && cache().give(ptr, rounded)) return;
  if (kSmallCache && rounded <= kSmallBlock && give_small(ptr, rounded)) return;
  std::free(ptr);
}

std::size_t cached_host_bytes() { return cache().cached(); }

bool small_host_cache_enabled() { return kSmallCache; }

}  // namespace tensorbuf::core
