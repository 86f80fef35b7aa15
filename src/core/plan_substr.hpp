// Validating and planning substr (src/core only).
#pragma once

#include "core/export_for_mpi.hpp"
#include "core/substr_plan.hpp"
#include "tensorbuf/ops.hpp"
#include "tensorbuf/string_tensor.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::core {

// Validates dtypes and shapes (spec/substr.md rules 1-2) and builds the plan; the policy is
// left for the op to resolve.
TENSORBUF_INTERNAL_FOR_MPI SubstrPlan plan_substr(const StringTensor& input,
                                                  const TensorBuffer& pos, const TensorBuffer& len,
                                                  const SubstrOptions& options);

}  // namespace tensorbuf::core
