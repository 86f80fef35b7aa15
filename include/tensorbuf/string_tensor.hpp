// StringTensor: a shaped tensor of byte strings in Apache Arrow's large_string layout.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf {

/// A shape plus two TensorBuffers: `offsets` (int64, size()+1 of them, from 0, non-decreasing)
/// and `chars` (uint8), string i being chars[offsets[i], offsets[i+1]). Both sync between host
/// and device like any TensorBuffer. Move-only.
class StringTensor {
 public:
  /// Throws InvalidArgumentError when values.size() != shape.num_elements().
  static StringTensor from_strings(const std::vector<std::string>& values, const Shape& shape);
  static StringTensor from_strings(const std::vector<std::string_view>& values, const Shape& shape);
  /// Takes ownership of raw buffers. Throws InvalidArgumentError unless offsets is int64 of
  /// shape.num_elements() + 1 elements, starting at 0, non-decreasing, last == chars size, and
  /// chars is uint8. On error the buffers are destroyed and nothing else changes.
  static StringTensor from_buffers(TensorBuffer offsets, TensorBuffer chars, const Shape& shape);

  Shape shape() const { return shape_; }
  /// Number of strings.
  std::int64_t size() const { return shape_.num_elements(); }
  /// Host view of string i (row-major); OutOfRangeError outside [0, size()).
  std::string_view at(std::int64_t i) const;
  std::vector<std::string> to_strings() const;

  const TensorBuffer& offsets() const { return offsets_; }
  const TensorBuffer& chars() const { return chars_; }

 private:
  StringTensor(TensorBuffer offsets, TensorBuffer chars, Shape shape);
  TensorBuffer offsets_;
  TensorBuffer chars_;
  Shape shape_;
};

}  // namespace tensorbuf
