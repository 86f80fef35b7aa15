// Tuning of the CPU boolean_mask backend, for tests that want its streamed output on small
// tensors.
#pragma once

#include <cstdint>

namespace tensorbuf::cpu {

/// Outputs of at least `bytes` (default kStreamOutputBytes, cpu/streaming_copy.hpp) are written
/// with non-temporal stores where the path has them.
void set_boolean_mask_stream_bytes(std::int64_t bytes);

}  // namespace tensorbuf::cpu
