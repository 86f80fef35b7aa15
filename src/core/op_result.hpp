// What every backend reports besides its op's own figures, under the same names for every op
// (DESIGN.md, "Out-of-bounds indices"). Plain data. No count of the positions kDrop skipped:
// docs/internals.md, "Backend results".
#pragma once

#include <cstdint>

namespace tensorbuf::core {

struct OpResult {
  // The smallest bad position (row-major over the op's index space, as its result documents it:
  // index rows, output elements, the rows of a mask dim) or -1. Set only when the backend
  // rejected the run (kError, or a mask count that does not fit `updates`): then its output must
  // not be used (nothing was written in place), and the op raises the spec's error
  // (core/op_errors.hpp).
  std::int64_t first_bad_index = -1;

  constexpr bool applied() const { return first_bad_index < 0; }
};

}  // namespace tensorbuf::core
