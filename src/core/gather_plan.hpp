// gather (spec/indexing.md 4; ONNX Gather, np.take, tf.gather with batch_dims): the plan and the
// buffers a backend gets (the result is core::AxisIndexResult). Plain data only: the kernels
// include this header and nothing else of src/core's op code (DESIGN.md, "The op template").
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/axis_index_result.hpp"
#include "core/small_dims.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

// params viewed as [B, O, s, I] and indices as [B, N] (b = batch_dims, B = prod(params.shape[:b])
// = prod(indices.shape[:b]), O = prod(params.shape[b:axis]), s = params.shape[axis],
// I = prod(params.shape[axis+1:]), N = prod(indices.shape[b:])):
//   out[batch, o, n, :] = params[batch, o, wrap(indices[batch, n]), :]
// with wrap(i) = i + s for -s <= i < 0. Index values are checked by the backends.
struct GatherPlan {
  DataType dtype = DataType::kFloat32;      // of params and the output
  std::size_t element_size = 4;             // the backends only move bytes
  DataType index_dtype = DataType::kInt32;  // int32 or int64
  SmallDims params_dims;                    // params.shape
  SmallDims indices_dims;                   // indices.shape
  int axis = 0;                             // normalised: 0 <= axis < params.rank
  int batch_dims = 0;                       // b
  std::int64_t batches = 1;                 // B
  std::int64_t outer = 1;                   // O
  std::int64_t axis_size = 0;               // s
  std::int64_t inner = 1;                   // I, in elements
  std::int64_t indices_per_batch = 1;       // N
  std::int64_t num_indices = 0;             // B * N
  // Set by the op after dispatch: the resolved policy (kError or kDrop).
  OutOfBoundsPolicy policy = OutOfBoundsPolicy::kError;
};

// Raw pointers on the device the backend runs on; `out` holds B * O * N * I elements.
struct GatherBuffers {
  const void* params = nullptr;
  const void* indices = nullptr;
  void* out = nullptr;
};

}  // namespace tensorbuf::core
