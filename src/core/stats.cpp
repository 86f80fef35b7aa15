#include "core/stats_counters.hpp"
#include "tensorbuf/stats.hpp"

namespace tensorbuf {
namespace core {

StatsCounters& stats_counters() {
  static StatsCounters counters;
  return counters;
}

}  // namespace core

Stats stats() {
  const core::StatsCounters& c = core::stats_counters();
  Stats s;
  s.host_to_device_copies = c.host_to_device_copies.load();
  s.device_to_host_copies = c.device_to_host_copies.load();
  s.bytes_host_to_device = c.bytes_host_to_device.load();
  s.bytes_device_to_host = c.bytes_device_to_host.load();
  s.device_allocations = c.device_allocations.load();
  s.pinned_host_allocations = c.pinned_host_allocations.load();
  s.host_allocations = c.host_allocations.load();
  s.host_waits = c.host_waits.load();
  return s;
}

void reset_stats() {
  core::StatsCounters& c = core::stats_counters();
  c.host_to_device_copies = 0;
  c.device_to_host_copies = 0;
  c.bytes_host_to_device = 0;
  c.bytes_device_to_host = 0;
  c.device_allocations = 0;
  c.pinned_host_allocations = 0;
  c.host_allocations = 0;
  c.host_waits = 0;
}

}  // namespace tensorbuf
