// The part of a replicated operand that a rank's rows use (an operand that broadcasts against a
// row-sharded target: updates, per-string positions and lengths), as a zero-copy view.
#pragma once

#include <cstdint>

#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::dist::detail {

// Rows [begin, begin + count) of `operand` along its dim aligned (from the right, NumPy
// broadcasting) with dim 0 of a target of rank `target_rank`; `operand` itself when that dim
// is absent or, with `broadcast`, 1. The view (in `view`) references `operand`'s host bytes
// (staged from the device if stale) and lives as long as `operand` is unchanged.
const TensorBuffer& row_part(const TensorBuffer& operand, int target_rank, bool broadcast,
                             std::int64_t begin, std::int64_t count, TensorBuffer& view);

}  // namespace tensorbuf::dist::detail
