// Library-internal construction of a StringTensor from buffers an op has just written, without
// from_buffers' host-side validation (which would copy device offsets to the host).
#pragma once

#include <utility>

#include "tensorbuf/string_tensor.hpp"

namespace tensorbuf::core {

struct StringTensorAccess {
  // The caller guarantees the layout invariants (offsets int64 [n+1] from 0, non-decreasing,
  // last == chars size; chars uint8), as an op's output does by construction.
  static StringTensor make_unchecked(TensorBuffer offsets, TensorBuffer chars, Shape shape) {
    return StringTensor(std::move(offsets), std::move(chars), std::move(shape));
  }
  // Moves the offsets and chars out (the C API returns them as two buffers).
  static std::pair<TensorBuffer, TensorBuffer> take_buffers(StringTensor&& strings) {
    return {std::move(strings.offsets_), std::move(strings.chars_)};
  }
};

}  // namespace tensorbuf::core
