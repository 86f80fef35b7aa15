// Tuning of the CPU scatter backend, for tests that want the multi-block path on small tensors.
#pragma once

#include <cstdint>

#include "core/scatter_nd_plan.hpp"

namespace tensorbuf::cpu {

struct ScatterNdTuning {
  std::int64_t block_bytes = std::int64_t{256} << 10;  // output bytes one task owns
  std::int64_t serial_below = std::int64_t{1} << 15;   // rows * slice + elements below: serial
};

core::ScatterNdResult scatter_nd_tuned(const core::ScatterNdPlan& plan,
                                       const core::ScatterNdBuffers& buffers,
                                       const ScatterNdTuning& tuning);

}  // namespace tensorbuf::cpu
