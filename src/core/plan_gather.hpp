// Validating and planning gather (src/core only; a bad index's text: core/axis_indices.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "core/gather_plan.hpp"
#include "tensorbuf/ops.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::core {

// spec/indexing.md 4 and 5b: InvalidArgumentError naming the problem for indices that are not
// int32/int64, a scalar params, an axis outside [-params.rank, params.rank), batch_dims outside
// [0, min(indices.rank, axis)], or batch dims of params and indices that differ. The policy is
// left to the op.
GatherPlan plan_gather(const TensorBuffer& params, const TensorBuffer& indices,
                       const GatherOptions& options);

// params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis+1:].
std::vector<std::int64_t> gather_output_dims(const GatherPlan& plan);

}  // namespace tensorbuf::core
