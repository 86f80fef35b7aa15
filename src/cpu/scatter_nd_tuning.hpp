// Tuning of the CPU scatter backend, for tests that want several output owners, or buckets of
// several blocks, on small tensors.
#pragma once

#include <cstdint>

#include "core/scatter_nd_plan.hpp"

namespace tensorbuf::cpu {

struct ScatterNdTuning {
  int owners = 0;                 // output ranges, one thread each; 0: the pool's policy decides
  std::int64_t bucket_bytes = 0;  // > 0: bucketed by output blocks of this many bytes, when a
                                  // slice fits one (wins over `owners`)
  int prefetch = -1;              // 1 / 0: owners prefetch slices ahead, or not; -1: only
                                  // where the table is beyond the L2 cache
};

core::ScatterNdResult scatter_nd_tuned(const core::ScatterNdPlan& plan,
                                       const core::ScatterNdBuffers& buffers,
                                       const ScatterNdTuning& tuning);

}  // namespace tensorbuf::cpu
