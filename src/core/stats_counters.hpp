// The process-wide counters behind tensorbuf::stats(), incremented by the storage and the
// device-memory implementations.
#pragma once

#include <atomic>
#include <cstdint>

namespace tensorbuf::core {

struct StatsCounters {
  std::atomic<std::int64_t> host_to_device_copies{0};
  std::atomic<std::int64_t> device_to_host_copies{0};
  std::atomic<std::int64_t> bytes_host_to_device{0};
  std::atomic<std::int64_t> bytes_device_to_host{0};
  std::atomic<std::int64_t> device_allocations{0};
  std::atomic<std::int64_t> pinned_host_allocations{0};
  std::atomic<std::int64_t> host_allocations{0};
  std::atomic<std::int64_t> host_waits{0};
};

StatsCounters& stats_counters();

}  // namespace tensorbuf::core
