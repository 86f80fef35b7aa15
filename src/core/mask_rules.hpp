// The mask rules shared by the ops that take a `mask` (the op table's rows whose inputs name
// one; spec/indexing.md 5 points to them): InvalidArgumentError with the spec's texts, raised in
// each op's plan. src/core only.
#pragma once

#include "tensorbuf/tensor_buffer.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

// A bool mask of rank K >= 1 ...
void check_mask_value(const TensorBuffer& mask);
// ... whose shape is tensor.shape[axis:axis+K]; returns the axis normalised (>= 0).
int mask_axis(const Shape& tensor_shape, const Shape& mask_shape, int axis);

}  // namespace tensorbuf::core
