// boolean_mask, boolean_mask_into and compress: the plan, the buffers and the result a backend
// returns. Plain data only: the kernels include this header and nothing else of src/core's op
// code (DESIGN.md, "The op template").
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "core/op_result.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

// The tensor viewed as [outer, axis_size, inner]; the mask covers the first mask_size rows of
// the middle dim (boolean_mask: all of them; compress: a shorter condition, the rest false).
// The output is [outer, capacity, inner], slice j of each outer block being the j-th selected
// row. All sizes in elements.
struct BooleanMaskPlan {
  DataType dtype = DataType::kFloat32;
  std::size_t element_size = 4;  // the backends only move bytes
  std::int64_t outer = 1;
  std::int64_t axis_size = 0;
  std::int64_t mask_size = 0;  // <= axis_size
  std::int64_t inner = 1;
  // boolean_mask_into: the output's middle dim, whatever n is (rows past n are left as they
  // were, rows past the capacity are not written). -1: the output is allocated for n rows.
  std::int64_t capacity = -1;
  // Where the output's middle dim goes: the normalised axis and the dims the mask covers
  // (compress without an axis: flatten, the output is 1-D).
  int axis = 0;
  int mask_rank = 1;
  bool flatten = false;
};

// Raw pointers on the backend's device. `out` is set for the into form (capacity >= 0), else
// the backend asks AllocateMasked for it once n is known. `count`: the into form's one-element
// int64 output (written on the device, no host read), else null.
struct BooleanMaskBuffers {
  const void* tensor = nullptr;
  const std::uint8_t* mask = nullptr;  // any nonzero byte is true
  void* out = nullptr;
  std::int64_t* count = nullptr;
};

// Allocates the output for n selected rows on the backend's side; returns its data (null when
// it is empty). Called once, by the sized form only.
using AllocateMasked = std::function<void*(std::int64_t n)>;

// What a backend reports: nothing is ever rejected; `count` is n when the backend learned it on
// the host (the sized form), else -1.
struct BooleanMaskResult : OpResult {
  std::int64_t count = -1;
};

}  // namespace tensorbuf::core
