// gather_elements and scatter_elements (spec/indexing.md 2 and 4; ONNX GatherElements /
// ScatterElements, torch.gather / scatter_reduce_): the plans, buffers and the layout both share.
// Plain data only: the kernels include this header and nothing else of src/core's op code
// (DESIGN.md, "The op template"). The result is core::AxisIndexResult.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/axis_index_result.hpp"
#include "core/op_table.hpp"
#include "core/small_dims.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

// Position p of indices (row-major over indices.shape) addresses the tensor element
//   base(p) + wrap(indices[p]) * axis_stride
// where base(p) = sum over d != axis of coord_d(p) * tensor_stride[d]. The dims are merged
// where the mapping allows (a dim of indices of size 1 dropped, neighbours merged when the
// tensor's strides are contiguous across them), so most calls walk 1-3 dims.
struct ElementsLayout {
  SmallDims tensor_dims;    // the indexed tensor's shape (params / tensor)
  SmallDims indices_dims;   // indices.shape
  int axis = 0;             // normalised, in tensor_dims
  std::int64_t axis_size = 0;     // s = tensor.shape[axis]
  std::int64_t axis_stride = 1;   // elements between neighbours along the axis
  std::int64_t num_positions = 0; // prod(indices.shape)
  SmallDims dims;           // the merged dims of indices (row-major)
  SmallDims strides;        // the tensor's stride of each merged dim (0 for the axis dim)
  int merged_axis = 0;      // the axis' place in `dims`
};

struct GatherElementsPlan {
  DataType dtype = DataType::kFloat32;      // of params and the output
  std::size_t element_size = 4;             // the backends only move elements
  DataType index_dtype = DataType::kInt32;  // int32 or int64
  ElementsLayout layout;
  // Set by the op after dispatch: the resolved policy (kError or kDrop).
  OutOfBoundsPolicy policy = OutOfBoundsPolicy::kError;
};

// Raw pointers on the device the backend runs on; `out` has indices' shape.
struct GatherElementsBuffers {
  const void* params = nullptr;
  const void* indices = nullptr;
  void* out = nullptr;
};

struct ScatterElementsPlan {
  ScatterOp op = ScatterOp::kUpdate;        // kUpdate (reduction none), kAdd, kMul, kMin, kMax
  DataType dtype = DataType::kFloat32;      // of tensor, updates and the output
  DataType index_dtype = DataType::kInt32;  // int32 or int64
  ElementsLayout layout;
  std::int64_t num_elements = 0;            // of the tensor
  // Set by the op after dispatch: the resolved policy (kError or kDrop) and determinism.
  OutOfBoundsPolicy policy = OutOfBoundsPolicy::kError;
  bool deterministic = false;
};

// `tensor` may equal `out` (in place); under kError the backend never writes `out` before every
// index is known good.
struct ScatterElementsBuffers {
  const void* tensor = nullptr;
  const void* indices = nullptr;
  const void* updates = nullptr;
  void* out = nullptr;
};

}  // namespace tensorbuf::core
