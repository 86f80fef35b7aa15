// tensor_scatter_nd_{sub,add,update,min,max}: the plan (validated shapes, strides and sizes,
// plain data) and the entry points of the two backends, which take it.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/dispatch.hpp"
#include "tensorbuf/ops.hpp"
#include "tensorbuf/tensor_buffer.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

// The combine step of a scatter: out[slice] op= updates[row].
enum class ScatterOp { kSub, kAdd, kUpdate, kMin, kMax };

// "tensor_scatter_nd_sub", ... (used in error messages).
std::string_view scatter_op_name(ScatterOp op);

// Everything both backends need, validated once. Index components are checked by the
// backends; everything else about the arguments is checked here.
struct ScatterNdPlan {
  ScatterOp op = ScatterOp::kSub;
  DataType dtype = DataType::kFloat32;      // of tensor, updates and the output
  DataType index_dtype = DataType::kInt32;  // int32 or int64
  Shape tensor_shape;
  Shape indices_shape;
  int depth = 1;                            // D = indices.shape[-1]
  std::int64_t num_rows = 0;                // N = prod(indices.shape[:-1])
  std::int64_t slice_size = 0;              // S = prod(tensor.shape[D:])
  std::int64_t num_slices = 0;              // prod(tensor.shape[:D]); 0 when S == 0 and it
                                            // would overflow (nothing is written then)
  std::int64_t num_elements = 0;            // of the tensor
  std::vector<std::int64_t> index_dims;     // tensor.shape[:D]: the bounds of a component
  std::vector<std::int64_t> slice_strides;  // row-major strides over tensor.shape[:D], in
                                            // slices (element offset = slice * S)
  // Set by the op after dispatch: the resolved policy (kError or kDrop) and determinism.
  OutOfBoundsPolicy policy = OutOfBoundsPolicy::kError;
  bool deterministic = false;
};

// Validates the arguments of `op` (InvalidArgumentError with the spec's texts) and plans it.
ScatterNdPlan plan_scatter_nd(ScatterOp op, const TensorBuffer& tensor, const TensorBuffer& indices,
                              const TensorBuffer& updates);

// Raw pointers on the device the backend runs on. `tensor` may equal `out` (in place); the
// backend never writes `out` before the rows are known good under kError.
struct ScatterNdBuffers {
  const void* tensor = nullptr;
  const void* indices = nullptr;
  const void* updates = nullptr;
  void* out = nullptr;
};

// What a backend reports. `first_bad_row` is the smallest bad row (flattened position in
// indices.shape[:-1]) or -1; under kError it is set only when nothing was applied, and
// `bad_index` then holds that row's D components. `dropped_rows` counts the bad rows skipped
// under kDrop where the backend counts them (the CPU); -1 where it does not (CUDA, which would
// have to wait for the device to know).
struct ScatterNdResult {
  std::int64_t first_bad_row = -1;
  std::vector<std::int64_t> bad_index;
  std::int64_t dropped_rows = 0;
};

// The error text of a bad row (rule 7 / rule 9), e.g.
// "indices[1,0] = [9] does not index into shape [4]".
std::string bad_row_message(const ScatterNdPlan& plan, std::int64_t row,
                            const std::vector<std::int64_t>& components);

}  // namespace tensorbuf::core

namespace tensorbuf::cpu {

// The CPU backend: writes out = tensor with the rows applied (rows in order, deterministic),
// multithreaded. Under kError nothing is written when a row is bad.
core::ScatterNdResult scatter_nd(const core::ScatterNdPlan& plan,
                                 const core::ScatterNdBuffers& buffers);

// Tuning of the CPU backend, for tests that want the multi-block path on small tensors.
struct ScatterNdTuning {
  std::int64_t block_bytes = std::int64_t{256} << 10;  // output bytes one task owns
  std::int64_t serial_below = std::int64_t{1} << 15;   // rows * slice + elements below: serial
};
core::ScatterNdResult scatter_nd_tuned(const core::ScatterNdPlan& plan,
                                       const core::ScatterNdBuffers& buffers,
                                       const ScatterNdTuning& tuning);

}  // namespace tensorbuf::cpu

namespace tensorbuf::cuda {

// The CUDA backend: enqueues the work on context.stream; no host wait except under kError
// (one read of the first bad row). Atomics (order of duplicates unspecified) unless
// plan.deterministic, which sorts rows by destination and reduces them in row order.
core::ScatterNdResult scatter_nd(const core::ScatterNdPlan& plan,
                                 const core::ScatterNdBuffers& buffers,
                                 const core::CudaContext& context);

}  // namespace tensorbuf::cuda
