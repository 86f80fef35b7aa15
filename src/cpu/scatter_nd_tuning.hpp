// Tuning of the CPU scatter backend, for tests that want several output owners on small tensors.
#pragma once

#include "core/scatter_nd_plan.hpp"

namespace tensorbuf::cpu {

struct ScatterNdTuning {
  int owners = 0;  // output ranges, one thread each; 0: the pool's policy decides
};

core::ScatterNdResult scatter_nd_tuned(const core::ScatterNdPlan& plan,
                                       const core::ScatterNdBuffers& buffers,
                                       const ScatterNdTuning& tuning);

}  // namespace tensorbuf::cpu
