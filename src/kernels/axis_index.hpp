// The index rule of the axis-indexed ops (core/axis_indices.hpp; spec/indexing.md 2 and 4),
// shared by their CPU backends and their device drivers: an index wraps once (-s <= i < 0 means
// i + s, ONNX) and is out of range outside [-s, s); the first bad position and its value read
// back for the error text.
#pragma once

#include <cstdint>

#include "core/axis_index_result.hpp"
#include "kernels/config.hpp"
#include "kernels/nd_rows.hpp"

namespace tensorbuf::kernels {

// *wrapped = raw (+ s when negative) and true when -s <= raw < s; false otherwise. One unsigned
// compare after the wrap (raw + s cannot overflow for raw < 0 and s >= 0).
template <class Index>
TENSORBUF_HOST_DEVICE inline bool wrap_axis_index(Index raw, std::int64_t s,
                                                  std::int64_t* wrapped) {
  std::int64_t v = static_cast<std::int64_t>(raw);
  if (v < 0) v += s;
  if (static_cast<std::uint64_t>(v) >= static_cast<std::uint64_t>(s)) return false;
  *wrapped = v;
  return true;
}

// Records the smallest position of `indices` whose value is out of range for an axis of size s.
template <class Index>
struct ValidateAxisIndicesFunctor {
  const Index* indices;
  std::int64_t axis_size;
  std::int64_t* first_bad;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t p) const {
    std::int64_t v = 0;
    if (!wrap_axis_index(indices[p], axis_size, &v)) atomic_min_i64(first_bad, p);
  }
};

// The result for bad position `p`: its value read back (error path only).
template <class Executor, class Index>
core::AxisIndexResult bad_axis_index_result(Executor& executor, const Index* indices,
                                            std::int64_t p) {
  core::AxisIndexResult result;
  result.first_bad_index = p;
  result.bad_value = static_cast<std::int64_t>(executor.read_value(indices + p));
  return result;
}

}  // namespace tensorbuf::kernels
