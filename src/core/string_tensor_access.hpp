// Library-internal construction of a StringTensor from buffers an op has just written, without
// from_buffers' host-side validation (which would copy device offsets to the host), and the
// ops' view of a bounded output (string_tensor.hpp) without trimming it.
#pragma once

#include <cstdint>
#include <utility>

#include "tensorbuf/string_tensor.hpp"

namespace tensorbuf::core {

struct StringTensorAccess {
  // The caller guarantees the layout invariants (offsets int64 [n+1] from 0, non-decreasing,
  // last == chars size; chars uint8), as an op's output does by construction.
  static StringTensor make_unchecked(TensorBuffer offsets, TensorBuffer chars, Shape shape) {
    return StringTensor(std::move(offsets), std::move(chars), std::move(shape));
  }
  // Same, except that the last offset may be below chars' size: chars were written on the
  // device only (no host copy), and the tensor is trimmed at its first host use. Defined in
  // string_tensor.cpp.
  static StringTensor make_bounded(TensorBuffer offsets, TensorBuffer chars, Shape shape);
  // The chars an op reads on `device`: an untrimmed bounded output's own buffer when its chars
  // are valid there (read through BackendRun, i.e. its storage only: a concurrent trim changes
  // the buffer's shape), else chars(), which trims (moving the bytes goes through the host).
  static const TensorBuffer& chars_on(const StringTensor& strings, Device device);
  // An upper bound of the chars' size that never trims: the capacity of an untrimmed bounded
  // output, else num_chars().
  static std::int64_t chars_bound(const StringTensor& strings);
  // Moves the offsets and chars out (the C API returns them as two buffers), trimmed.
  static std::pair<TensorBuffer, TensorBuffer> take_buffers(StringTensor&& strings) {
    strings.trim();
    return {std::move(strings.offsets_), std::move(strings.chars_)};
  }
};

}  // namespace tensorbuf::core
