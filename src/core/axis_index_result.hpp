// What the backends of the axis-indexed ops (core/axis_indices.hpp; spec/indexing.md 2 and 4)
// report for a bad index: its flat position in indices and its value, read by the backend so
// that the error path reads nothing again. Plain data (the kernels include it).
#pragma once

#include <cstdint>

#include "core/op_result.hpp"

namespace tensorbuf::core {

// first_bad_index: the smallest flat position p of indices (row-major) whose value lies
// outside [-s, s) (s = the indexed axis' size), under kError only; then `bad_value` holds
// indices[p].
struct AxisIndexResult : OpResult {
  std::int64_t bad_value = 0;
};

}  // namespace tensorbuf::core
