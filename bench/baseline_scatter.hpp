// Yardstick kernels for the CUDA scatter cases (the target for case (a): within 1.3x of a
// plain non-atomic random-scatter kernel on the same indices).
#pragma once

#include <cstdint>

namespace tensorbuf::bench {

/// table[index[i]] -= updates[i] for i < n, one thread per update, with a plain (non-atomic)
/// read-modify-write: racy on duplicate indices, so only a timing yardstick. Enqueued on
/// `stream` (a cudaStream_t).
void plain_scatter_sub_f32(float* table, const std::int64_t* index, const float* updates,
                           std::int64_t n, void* stream);

}  // namespace tensorbuf::bench
