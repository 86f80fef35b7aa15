// Validating and planning gather_nd, and its bad row's text (src/core only).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/export_for_mpi.hpp"
#include "core/gather_nd_plan.hpp"
#include "tensorbuf/ops.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::core {

// spec/indexing.md 3 rule 1 and 5b: InvalidArgumentError naming the problem for indices that
// are not int32/int64, batch_dims outside [0, indices.rank), a depth outside
// [1, params.rank - batch_dims], or batch dims of params and indices that differ. The policy is
// left to the op.
TENSORBUF_INTERNAL_FOR_MPI GatherNdPlan plan_gather_nd(const TensorBuffer& params,
                                                       const TensorBuffer& indices,
                                                       const GatherOptions& options);

// indices.shape[:-1] + params.shape[batch_dims + D:].
std::vector<std::int64_t> gather_nd_output_dims(const GatherNdPlan& plan);

// What a bad row's components index into: params.shape[batch_dims:].
inline std::vector<std::int64_t> gather_nd_indexed_shape(const GatherNdPlan& plan) {
  return {plan.params_dims.begin() + plan.batch_dims, plan.params_dims.end()};
}

// A bad row, in the scatter ops' words (core/nd_indices.hpp), its position in indices.shape[:-1]
// and its components: "indices[1,0] = [9] does not index into shape [4]". Beside the plan, as
// core::raise_if_rejected and the distributed op find it (core/op_errors.hpp has the others).
TENSORBUF_INTERNAL_FOR_MPI std::string rejection_message(const GatherNdPlan& plan,
                                                         const GatherNdResult& result);

// Why a form must read device data on the host under CUDA graph capture (core/capture.hpp), or
// null: kError reads the first bad row back.
const char* gather_nd_capture_blocker(const GatherNdPlan& plan);

}  // namespace tensorbuf::core
