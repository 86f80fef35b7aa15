// Test helpers for substr: building inputs, and running the CUDA backend's driver
// (src/kernels/substr.hpp) on the CPU through kernels::HostExecutor.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/plan_substr.hpp"
#include "kernels/host_executor.hpp"
#include "support/launch_counting_executor.hpp"
#include "kernels/substr.hpp"
#include "substr/reference.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf::testing {

struct DriverRun {
  Strings values;
  std::int64_t first_bad = -1;
  std::int64_t bad_input =
      -1;                    // with first_bad: the element's input string, as the driver names it
  std::int64_t bad_pos = 0;  // with first_bad: its pos
  int reads = 0;             // executor host reads (each a host wait on CUDA)
  int allocations = 0;       // allocate_chars calls
  int fault_points = 0;      // executor scratch allocations (see HostExecutor)
  int launches = 0;          // CUDA launches the driver queued (LaunchCountingExecutor)
  std::vector<std::int64_t> offsets;
};

struct DriverSettings {
  SubstrUnit unit = SubstrUnit::kByte;
  bool report = false;               // kError
  std::int64_t lane_threshold = 64;  // 0: always kLanes per string; huge: never
  bool reverse = true;               // HostExecutor order
  int fail_scratch = 0;              // HostExecutor::fail_scratch (0: none)
  bool lane_scan = false;            // SubstrDriverConfig::lane_scan
  kernels::SubstrLaneCopy lane_copy = kernels::SubstrLaneCopy::kWords;  // ::lane_copy
  kernels::SubstrByteOffsets byte_offsets = kernels::SubstrByteOffsets::kSizesThenScan;
};

// Fills `run` as it goes, so that a caller still sees the offsets when the driver throws.
inline void run_driver(const StringTensor& input, const TensorBuffer& pos, const TensorBuffer& len,
                       const DriverSettings& settings, DriverRun& run) {
  SubstrOptions options;
  options.unit = settings.unit;
  const core::SubstrPlan plan = core::plan_substr(input, pos, len, options);
  LaunchCountingExecutor executor(settings.reverse);
  executor.fail_scratch(settings.fail_scratch);
  run.offsets.assign(static_cast<std::size_t>(plan.out_size + 1), -7);
  std::vector<std::uint8_t> chars;
  auto allocate = [&](std::int64_t total) {
    ++run.allocations;
    chars.assign(static_cast<std::size_t>(total), 0xEE);
    return chars.data();
  };
  kernels::SubstrDriverConfig config;
  config.lane_threshold = settings.lane_threshold;
  config.lane_scan = settings.lane_scan;
  config.lane_copy = settings.lane_copy;
  config.byte_offsets = settings.byte_offsets;
  core::SubstrPlan run_plan = plan;
  run_plan.policy = settings.report ? OutOfBoundsPolicy::kError : OutOfBoundsPolicy::kDrop;
  core::SubstrBuffers buffers;
  buffers.in_offsets = input.offsets().host<std::int64_t>();
  buffers.in_chars = static_cast<const std::uint8_t*>(input.chars().host_bytes());
  buffers.pos = pos.host_bytes();
  buffers.len = len.host_bytes();
  buffers.out_offsets = run.offsets.data();
  const core::SubstrResult result =
      pos.data_type() == DataType::kInt32
          ? kernels::run_substr<std::int32_t>(executor, run_plan, buffers, allocate, config)
          : kernels::run_substr<std::int64_t>(executor, run_plan, buffers, allocate, config);
  run.first_bad = result.first_bad_index;
  run.bad_input = result.bad_input_index;
  run.bad_pos = result.bad_pos;
  run.reads = executor.reads();
  run.launches = executor.launches();
  run.fault_points = executor.fault_points();
  if (run.first_bad < 0) {
    for (std::int64_t i = 0; i < plan.out_size; ++i) {
      const auto b = static_cast<std::size_t>(run.offsets[static_cast<std::size_t>(i)]);
      const auto e = static_cast<std::size_t>(run.offsets[static_cast<std::size_t>(i) + 1]);
      run.values.emplace_back(reinterpret_cast<const char*>(chars.data()) + b, e - b);
    }
  }
}

inline DriverRun run_driver(const StringTensor& input, const TensorBuffer& pos,
                            const TensorBuffer& len, const DriverSettings& settings) {
  DriverRun run;
  run_driver(input, pos, len, settings, run);
  return run;
}

}  // namespace tensorbuf::testing
