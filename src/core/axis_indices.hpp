// The index rules the axis-indexed ops share (each index picks a position along one axis;
// spec/indexing.md 2 and 4): the axis check and the text that names a bad index. Written once
// here so that all of them say the same thing. src/core only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/small_dims.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

// `axis` counted from the end when negative; InvalidArgumentError
// "<op>: axis = 2 is out of range for <what> of rank 2 (shape [3,4])" outside [-rank, rank).
int normalize_axis(std::string_view op, int axis, std::string_view what, const Shape& shape);

// "indices[1,0] = 7 is out of range for axis 1 of shape [3,3]" (spec/indexing.md 2 rule 4):
// `position` is the flat position in indices (shape `indices_dims`; a scalar indices reads
// "indices = 7"), `value` its index, `shape` the indexed tensor's shape.
std::string bad_axis_index_message(const SmallDims& indices_dims, std::int64_t position,
                                   std::int64_t value, int axis, const SmallDims& shape);

}  // namespace tensorbuf::core
