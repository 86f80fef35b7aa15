// boolean_mask_update: the plan (validated shapes and the broadcast map of `updates`), the
// buffers and the result a backend returns. Plain data only: the kernels include this header
// and nothing else of src/core's op code (DESIGN.md, "The op template").
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/op_result.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

// Most dims the broadcast map of `updates` may keep on each side of the mask dim after merging
// (dims of size 1 dropped, neighbours with compatible strides merged). Only an alternation of
// broadcast and non-broadcast dims of a very high-rank tensor exceeds it; such a call raises
// InvalidArgumentError (docs/boolean_mask_update.md).
inline constexpr int kMaskUpdateMaxDims = 8;

// The tensor viewed as [outer, mask_size, inner] and the target (what `updates` is broadcast
// to) as [outer, n, inner]. Element (o, j, t) of the target is read from `updates` at
//   lead_offset(o) + j * row_stride + trail_offset(t)       (in elements)
// where lead_offset unravels o over lead_dims (row-major) with lead_strides, and
// trail_offset unravels t over trail_dims with trail_strides. A stride of 0 is a broadcast dim:
// the broadcast is never materialised. Plain data (C arrays), passed by value to CUDA kernels.
struct MaskUpdateLayout {
  std::int64_t outer = 1;      // prod(tensor.shape[:axis])
  std::int64_t mask_size = 0;  // M = prod(mask.shape)
  std::int64_t inner = 1;      // prod(tensor.shape[axis+K:])
  int lead_rank = 0;
  std::int64_t lead_dims[kMaskUpdateMaxDims] = {};
  std::int64_t lead_strides[kMaskUpdateMaxDims] = {};
  std::int64_t row_stride = 0;  // 0 when updates has no dim of size n (absent or 1)
  int trail_rank = 0;
  std::int64_t trail_dims[kMaskUpdateMaxDims] = {};
  std::int64_t trail_strides[kMaskUpdateMaxDims] = {};
  bool trail_contiguous = true;  // trail_offset(t) == t
  bool trail_broadcast = true;   // trail_offset(t) == 0
};

// Everything both backends need, validated once.
struct BooleanMaskUpdatePlan {
  DataType dtype = DataType::kFloat32;  // of tensor, updates and the output
  std::size_t element_size = 4;         // the backends only move bytes
  Shape tensor_shape;
  Shape updates_shape;
  int axis = 0;       // normalised (>= 0)
  int mask_rank = 1;  // K
  bool broadcast = true;
  // The count n of true mask entries that `updates` requires: its dim aligned with n when that
  // dim is present and not 1 (broadcast), or always present (broadcast = false). -1: any n is
  // fine, so n never has to reach the host. A backend that sees another n writes nothing.
  std::int64_t required_count = -1;
  MaskUpdateLayout layout;
};

// What a backend reports (core::OpResult): rejected (applied() false, nothing written) only when
// the count n of true mask entries does not fit `updates` (n != plan.required_count); then
// first_bad_index is the first row along the mask dim that only one side has, min(n,
// required_count). `count`: n when the backend computed it on the host, else -1 (it stayed on
// the device).
struct BooleanMaskUpdateResult : OpResult {
  std::int64_t count = -1;
};

// The result of a run that counted n true entries against `required_count` (-1: any n fits).
constexpr BooleanMaskUpdateResult counted_mask_result(std::int64_t n, std::int64_t required_count) {
  BooleanMaskUpdateResult result;
  result.count = n;
  if (required_count >= 0 && n != required_count) {
    result.first_bad_index = n < required_count ? n : required_count;
  }
  return result;
}

// Raw pointers on the device the backend runs on. `out` may equal `tensor` (in place); the
// mask is bytes, any nonzero byte is true.
struct BooleanMaskUpdateBuffers {
  const void* tensor = nullptr;
  const std::uint8_t* mask = nullptr;
  const void* updates = nullptr;
  void* out = nullptr;
};

}  // namespace tensorbuf::core
