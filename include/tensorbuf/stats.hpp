// Process-wide counters of the work that lazy sync and the ops do behind the caller's back.
#pragma once

#include <cstdint>

#include "tensorbuf/export.h"

namespace tensorbuf {

/// Counts since the start of the process or the last reset_stats(). Tests use them to prove
/// that ops on device-resident data copy nothing to the host, wait for nothing and allocate
/// nothing in steady state.
struct Stats {
  std::int64_t host_to_device_copies = 0;
  std::int64_t device_to_host_copies = 0;
  std::int64_t bytes_host_to_device = 0;
  std::int64_t bytes_device_to_host = 0;
  std::int64_t device_allocations = 0;       // real allocations (caching-allocator misses)
  std::int64_t pinned_host_allocations = 0;  // real pinned allocations (cache misses)
  std::int64_t host_allocations = 0;         // real pageable host allocations (cache misses)
  std::int64_t host_waits = 0;               // times the host blocked on device work
};

/// A snapshot of the counters.
TENSORBUF_API Stats stats();
/// Sets every counter to zero.
TENSORBUF_API void reset_stats();

}  // namespace tensorbuf
