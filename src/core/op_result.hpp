// What every backend reports besides its op's own figures, under the same names for every op
// (DESIGN.md, "Out-of-bounds indices"). Plain data. No count of the positions kDrop skipped:
// docs/internals.md, "Backend results".
#pragma once

#include <cstdint>

namespace tensorbuf::core {

struct OpResult {
  // kError: the smallest bad position (row-major over the op's index space) or -1; when it is
  // set, nothing was written.
  std::int64_t first_bad_index = -1;
};

}  // namespace tensorbuf::core
