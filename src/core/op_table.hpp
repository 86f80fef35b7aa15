// The op table's internal side: the scatter combine enum every backend switches on, made from
// the public list (tensorbuf/op_table.hpp), so a combine added there exists here too.
#pragma once

#include <cstddef>

#include "tensorbuf/op_table.hpp"

namespace tensorbuf::core {

// The combine step of a scatter: out[slice] op= updates[row]. Enumerators in the table's order.
enum class ScatterOp {
#define TENSORBUF_SCATTER_ENUMERATOR(name, op, what) op,
  TENSORBUF_SCATTER_COMBINES(TENSORBUF_SCATTER_ENUMERATOR)
#undef TENSORBUF_SCATTER_ENUMERATOR
};

constexpr const ScatterCombineInfo& scatter_combine(ScatterOp op) {
  return kScatterCombines[static_cast<std::size_t>(op)];
}

}  // namespace tensorbuf::core
