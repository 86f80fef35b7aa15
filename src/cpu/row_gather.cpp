#include "cpu/row_gather.hpp"

#include <atomic>

namespace tensorbuf::cpu {
namespace {

std::atomic<std::int64_t> g_prefetch_table_bytes{RowGatherThresholds{}.prefetch_table_bytes};
std::atomic<std::int64_t> g_stream_output_bytes{RowGatherThresholds{}.stream_output_bytes};

}  // namespace

RowGatherThresholds row_gather_thresholds() {
  RowGatherThresholds thresholds;
  thresholds.prefetch_table_bytes = g_prefetch_table_bytes.load(std::memory_order_relaxed);
  thresholds.stream_output_bytes = g_stream_output_bytes.load(std::memory_order_relaxed);
  return thresholds;
}

void set_row_gather_thresholds(const RowGatherThresholds& thresholds) {
  g_prefetch_table_bytes.store(thresholds.prefetch_table_bytes, std::memory_order_relaxed);
  g_stream_output_bytes.store(thresholds.stream_output_bytes, std::memory_order_relaxed);
}

}  // namespace tensorbuf::cpu
