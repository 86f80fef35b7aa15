// Products of a run of a shape's dims, for the op plans.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tensorbuf::core {

// dims[begin] * ... * dims[end - 1]; 1 for an empty run. A Shape's element count is checked
// when it is built, so a run overflows only when a dim outside it is 0: the tensor is empty,
// nothing is read or written, and 0 is returned (also when a dim in the run is 0).
inline std::int64_t dims_product(const std::vector<std::int64_t>& dims, std::size_t begin,
                                 std::size_t end) {
  std::int64_t product = 1;
  for (std::size_t i = begin; i < end; ++i) {
    if (dims[i] == 0) return 0;
  }
  for (std::size_t i = begin; i < end; ++i) {
    if (__builtin_mul_overflow(product, dims[i], &product)) return 0;
  }
  return product;
}

}  // namespace tensorbuf::core
