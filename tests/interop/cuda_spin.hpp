// Device work for the stream-contract tests on a GPU: a kernel that keeps a stream busy, then
// a write the next reader must (or, in the controls, must not) wait for.
#pragma once

#include <cstdint>

namespace tensorbuf::testing {

// On `stream`: spins about `milliseconds` of GPU time, then sets data[0..n) to `value`.
void spin_then_fill(float* data, std::int64_t n, float value, int milliseconds, void* stream);
// On `stream`: copies n floats from `src` to `dst` (a consumer reading an export).
void copy_floats(float* dst, const float* src, std::int64_t n, void* stream);

}  // namespace tensorbuf::testing
