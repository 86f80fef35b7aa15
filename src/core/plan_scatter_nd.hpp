// Validating and planning the scatter ops, and the text of a bad row (src/core only).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/scatter_nd_plan.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::core {

// "tensor_scatter_nd_sub", ... (used in error messages).
std::string_view scatter_op_name(ScatterOp op);

// Validates the arguments of `op` (InvalidArgumentError with the spec's texts) and plans it.
ScatterNdPlan plan_scatter_nd(ScatterOp op, const TensorBuffer& tensor, const TensorBuffer& indices,
                              const TensorBuffer& updates);

// The error text of a bad row (rule 7 / rule 9), e.g.
// "indices[1,0] = [9] does not index into shape [4]".
std::string bad_row_message(const ScatterNdPlan& plan, std::int64_t row,
                            const std::vector<std::int64_t>& components);

}  // namespace tensorbuf::core
