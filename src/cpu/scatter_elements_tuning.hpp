// Tuning of the CPU scatter_elements backend, for tests and A/B timings that want a path the
// sizes would not pick: the direct path with or without its prefetches and its narrow indices,
// or the bucketed path (scatter_elements_bucketed / scatter_elements_tiled).
#pragma once

#include "core/elements_plan.hpp"

namespace tensorbuf::cpu {

struct ScatterElementsTuning {
  int bucketed = -1;  // 1 / 0: bucketed or direct; -1: by size (scatter_elements_buckets::applies)
  int prefetch = -1;  // direct path: 1 / 0 prefetch targets and streams, or not; -1: by size
  int wrapped = -1;   // direct path under kError: 0 checks the indices only; else they are
                      // checked into narrow wrapped ones where the axis fits 32 bits
};

core::AxisIndexResult scatter_elements_tuned(const core::ScatterElementsPlan& plan,
                                             const core::ScatterElementsBuffers& buffers,
                                             const ScatterElementsTuning& tuning);

}  // namespace tensorbuf::cpu
