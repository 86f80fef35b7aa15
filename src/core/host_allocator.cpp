#include "core/host_allocator.hpp"

#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>

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

}  // namespace

void* allocate_host_memory(std::size_t bytes) {
  const std::size_t rounded = rounded_size(bytes);
  if (rounded >= kLargeBlock) {
    if (void* reused = cache().take(rounded)) return reused;
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
  std::free(ptr);
}

std::size_t cached_host_bytes() { return cache().cached(); }

}  // namespace tensorbuf::core
