// gather_nd (spec/indexing.md 3): the plan, the buffers and the result a backend returns. Plain
// data only: the kernels include this header and nothing else of src/core's op code (DESIGN.md,
// "The op template").
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/op_result.hpp"
#include "core/small_dims.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

// params viewed as [B, params.shape[b:b+D], S] and indices as [B, R, D] (b = batch_dims,
// B = prod(params.shape[:b]) = prod(indices.shape[:b]), R = rows per batch, S = slice size):
//   out[batch * R + r, :] = params[batch, indices[batch, r], :]
// Index components are checked by the backends; everything else by plan_gather_nd.
struct GatherNdPlan {
  DataType dtype = DataType::kFloat32;      // of params and the output
  std::size_t element_size = 4;             // the backends only move bytes
  DataType index_dtype = DataType::kInt32;  // int32 or int64
  SmallDims params_dims;                    // params.shape
  SmallDims indices_dims;                   // indices.shape
  int batch_dims = 0;                       // b
  int depth = 1;                            // D = indices.shape[-1]
  std::int64_t num_rows = 0;                // B * R = prod(indices.shape[:-1])
  std::int64_t rows_per_batch = 0;          // R = prod(indices.shape[b:-1])
  std::int64_t slice_size = 0;              // S = prod(params.shape[b+D:]), in elements
  std::int64_t slices_per_batch = 0;        // prod(params.shape[b:b+D]); 0 when S == 0 and it
                                            // would overflow (nothing is read then)
  SmallDims index_bounds;                   // params.shape[b:b+D]: bounds an index's components
  SmallDims slice_strides;                  // row-major strides over index_bounds, in slices
  // Set by the op after dispatch: the resolved policy (kError or kDrop).
  OutOfBoundsPolicy policy = OutOfBoundsPolicy::kError;
};

// Raw pointers on the device the backend runs on; `out` holds num_rows * S elements.
struct GatherNdBuffers {
  const void* params = nullptr;
  const void* indices = nullptr;
  void* out = nullptr;
};

// first_bad_index: the smallest bad row (flattened position in indices.shape[:-1]), under
// kError only, and then `bad_components` holds that row's D index components, read by the
// backend so the error path reads nothing again. The output is then not to be used.
struct GatherNdResult : OpResult {
  std::vector<std::int64_t> bad_components;
};

}  // namespace tensorbuf::core
