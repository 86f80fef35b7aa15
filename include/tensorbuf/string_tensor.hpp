// StringTensor: a shaped tensor of byte strings in Apache Arrow's large_string layout.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf {

namespace core {
struct StringTensorAccess;
}

/// A shape plus two TensorBuffers: `offsets` (int64, size()+1 of them, from 0, non-decreasing)
/// and `chars` (uint8), string i being chars[offsets[i], offsets[i+1]). Both sync between host
/// and device like any TensorBuffer. Move-only. Strings are arbitrary bytes (no encoding is
/// assumed or checked; NUL bytes are ordinary bytes).
class StringTensor {
 public:
  /// An empty tensor: shape [0], offsets [0], no chars.
  StringTensor();

  /// Throws InvalidArgumentError when values.size() != shape.num_elements().
  /// `from_strings({"a", "b"}, {2})` picks the first overload; the second takes views
  /// (a std::vector<std::string_view> converts to the span).
  static StringTensor from_strings(const std::vector<std::string>& values, const Shape& shape);
  static StringTensor from_strings(std::span<const std::string_view> values, const Shape& shape);
  /// Takes ownership of raw buffers. Throws InvalidArgumentError unless offsets is int64 of
  /// shape.num_elements() + 1 elements, starting at 0, non-decreasing, last == chars size, and
  /// chars is uint8. On error the buffers are destroyed and nothing else changes.
  /// The offsets' shape is not checked beyond its element count (a [n+1] vector is usual).
  /// Validation reads the offsets on the host: device-only offsets are copied to the host.
  static StringTensor from_buffers(TensorBuffer offsets, TensorBuffer chars, const Shape& shape);

  StringTensor(StringTensor&&) noexcept = default;
  StringTensor& operator=(StringTensor&&) noexcept = default;
  StringTensor(const StringTensor&) = delete;
  StringTensor& operator=(const StringTensor&) = delete;

  Shape shape() const { return shape_; }
  /// Number of strings.
  std::int64_t size() const { return shape_.num_elements(); }
  /// Total bytes of all strings (the chars buffer's size).
  std::int64_t num_chars() const { return chars_.flat_size(); }
  /// Host view of string i (row-major); OutOfRangeError outside [0, size()). Syncs the
  /// offsets and chars to the host when stale; the view lives until the next non-const call.
  std::string_view at(std::int64_t i) const;
  /// All strings, row-major (host).
  std::vector<std::string> to_strings() const;

  const TensorBuffer& offsets() const { return offsets_; }
  const TensorBuffer& chars() const { return chars_; }

  /// Makes both buffers valid on `device` (copying when stale). UnavailableError for CUDA
  /// without a usable device.
  void sync_to(Device device) const;
  /// Whether both buffers hold their current contents on `device`.
  bool is_valid_on(Device device) const;
  /// Where the freshest copy lives (that of the offsets): CUDA if only the device copy is
  /// valid, else the CPU. Ops run there unless told otherwise.
  Device residence() const { return offsets_.residence(); }

 private:
  friend struct core::StringTensorAccess;
  StringTensor(TensorBuffer offsets, TensorBuffer chars, Shape shape);
  TensorBuffer offsets_;
  TensorBuffer chars_;
  Shape shape_;
};

}  // namespace tensorbuf
