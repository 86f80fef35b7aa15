// The index rules the *_nd ops share (an index row of D components picks a slice of the
// tensor; spec tensor_scatter_nd.md rules 1, 2, 7 and spec/indexing.md 3): the indices' dtype,
// the row -> slice geometry, and the text that names a bad row. Written once here, so every
// such op says the same thing. src/core only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/export_for_mpi.hpp"
#include "core/small_dims.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

// InvalidArgumentError "<op>: indices must be int32 or int64, got <dtype>" for other dtypes.
TENSORBUF_INTERNAL_FOR_MPI void check_index_dtype(std::string_view op, DataType indices_dtype);

// The row-major strides (in slices) over dims[first, first + depth) of `dims`, into `strides`,
// and the count of slices prod(dims[first, first + depth)). A shape is overflow-checked as a
// whole, so the product overflows only when a later dim is 0 (empty slices, nothing moves):
// then 0 is returned and the strides are 0.
std::int64_t slice_strides(const std::vector<std::int64_t>& dims, int first, int depth,
                           SmallDims& strides);

// The bad row's text: "indices[1,0] = [9] does not index into shape [4]". `row` is the flat
// position in indices.shape[:-1] (`indices_dims` is indices.shape), `components` its D index
// components, `shape` what they index into.
std::string bad_index_message(const SmallDims& indices_dims, std::int64_t row,
                              const std::vector<std::int64_t>& components,
                              const std::vector<std::int64_t>& shape);

}  // namespace tensorbuf::core
