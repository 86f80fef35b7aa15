// Validating and planning the scatter ops (src/core only; a bad row's text: core/op_errors.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/export_for_mpi.hpp"
#include "core/op_table.hpp"
#include "core/scatter_nd_plan.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::core {

// "tensor_scatter_nd_sub", ... (used in error messages).
inline std::string_view scatter_op_name(ScatterOp op) { return scatter_combine(op).name; }

// Validates the arguments of `op` (InvalidArgumentError with the spec's texts) and plans it.
TENSORBUF_INTERNAL_FOR_MPI ScatterNdPlan plan_scatter_nd(ScatterOp op, const TensorBuffer& tensor,
                                                         const TensorBuffer& indices,
                                                         const TensorBuffer& updates);

// Why a form must read device data on the host under CUDA graph capture (core/capture.hpp), or
// null: kError reads the first bad row back.
const char* scatter_nd_capture_blocker(const ScatterNdPlan& plan);

}  // namespace tensorbuf::core
