// Validating and planning gather_elements and scatter_elements (src/core only; a bad index's
// text: core/axis_indices.hpp).
#pragma once

#include "core/elements_plan.hpp"
#include "tensorbuf/ops.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::core {

// spec/indexing.md 4 and 5b: InvalidArgumentError naming the problem for indices that are not
// int32/int64, a scalar params, an axis outside [-rank, rank), indices of another rank, or
// indices.shape[d] > params.shape[d] for d != axis. The policy is left to the op.
GatherElementsPlan plan_gather_elements(const TensorBuffer& params, const TensorBuffer& indices,
                                        const GatherOptions& options);

// spec/indexing.md 2 rule 1 and 5b: as gather_elements for tensor and indices, and updates of
// the tensor's dtype and of indices' shape; kAdd / kMul / kMin / kMax not on bool.
ScatterElementsPlan plan_scatter_elements(const TensorBuffer& tensor, const TensorBuffer& indices,
                                          const TensorBuffer& updates,
                                          const ScatterElementsOptions& options);

}  // namespace tensorbuf::core
