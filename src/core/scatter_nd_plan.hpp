// tensor_scatter_nd_<combine> (core/op_table.hpp lists the combines): the plan, the buffers and the result a backend
// returns. Plain data only: the kernels include this header and nothing else of src/core's op
// code (DESIGN.md, "The op template").
#pragma once

#include <cstdint>
#include <vector>

#include "core/op_result.hpp"
#include "core/op_table.hpp"
#include "core/small_dims.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

// Everything both backends need, validated once. Index components are checked by the
// backends; everything else about the arguments is checked by plan_scatter_nd.
struct ScatterNdPlan {
  ScatterOp op = ScatterOp::kSub;
  DataType dtype = DataType::kFloat32;      // of tensor, updates and the output
  DataType index_dtype = DataType::kInt32;  // int32 or int64
  SmallDims tensor_dims;                    // tensor.shape; [:D] bounds an index's components
  SmallDims indices_dims;                   // indices.shape
  int depth = 1;                            // D = indices.shape[-1]
  std::int64_t num_rows = 0;                // N = prod(indices.shape[:-1])
  std::int64_t slice_size = 0;              // S = prod(tensor.shape[D:])
  std::int64_t num_slices = 0;              // prod(tensor.shape[:D]); 0 when S == 0 and it
                                            // would overflow (nothing is written then)
  std::int64_t num_elements = 0;            // of the tensor
  SmallDims slice_strides;                  // row-major strides over tensor.shape[:D], in
                                            // slices (element offset = slice * S)
  // Set by the op after dispatch: the resolved policy (kError or kDrop) and determinism.
  OutOfBoundsPolicy policy = OutOfBoundsPolicy::kError;
  bool deterministic = false;
};

// Raw pointers on the device the backend runs on. `tensor` may equal `out` (in place); the
// backend never writes `out` before the rows are known good under kError.
struct ScatterNdBuffers {
  const void* tensor = nullptr;
  const void* indices = nullptr;
  const void* updates = nullptr;
  void* out = nullptr;
};

// first_bad_index: the smallest bad row (flattened position in indices.shape[:-1]), under
// kError only, and then `bad_components` holds that row's D index components, read by the
// backend so the error path reads nothing again.
struct ScatterNdResult : OpResult {
  std::vector<std::int64_t> bad_components;
};

}  // namespace tensorbuf::core
