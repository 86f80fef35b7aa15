// StringTensor: a shaped tensor of byte strings in Apache Arrow's large_string layout.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tensorbuf/export.h"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf {

namespace core {
struct StringTensorAccess;
}

/// A shape plus two TensorBuffers: `offsets` (int64, size()+1 of them, from 0, non-decreasing)
/// and `chars` (uint8), string i being chars[offsets[i], offsets[i+1]), the last offset equal to
/// chars' size. Both sync between host and device like any TensorBuffer. Move-only. Strings are
/// arbitrary bytes (no encoding is assumed or checked; NUL bytes are ordinary bytes).
///
/// Bounded outputs: substr captured in a CUDA graph (docs/capture.md) returns a tensor whose
/// device chars hold an upper bound of bytes, more than its last offset. Every accessor that
/// shows the chars (num_chars, chars, at, to_strings, sync_to the host) first trims it, once:
/// the offsets are read on the host (a download and a host wait) and chars' size becomes the
/// last offset, in place (same memory, nothing copied). So the invariant above holds for
/// everything a caller sees; offsets(), shape(), is_valid_on and residence never trim, and ops
/// read an untrimmed tensor on its device as it is. After the trim the chars' size is fixed:
/// a later graph replay writes new strings on the device, but the host view keeps this one.
class TENSORBUF_API StringTensor {
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

  StringTensor(StringTensor&&) noexcept;
  StringTensor& operator=(StringTensor&&) noexcept;
  StringTensor(const StringTensor&) = delete;
  StringTensor& operator=(const StringTensor&) = delete;
  ~StringTensor();

  Shape shape() const { return shape_; }
  /// Number of strings.
  std::int64_t size() const { return shape_.num_elements(); }
  /// Total bytes of all strings (the chars buffer's size). Trims a bounded output.
  std::int64_t num_chars() const;
  /// Host view of string i (row-major); OutOfRangeError outside [0, size()). Syncs the
  /// offsets and chars to the host when stale; the view lives until the next non-const call.
  std::string_view at(std::int64_t i) const;
  /// All strings, row-major (host).
  std::vector<std::string> to_strings() const;

  const TensorBuffer& offsets() const { return offsets_; }
  /// The bytes of all strings. Trims a bounded output.
  const TensorBuffer& chars() const;

  /// Makes both buffers valid on `device` (copying when stale). UnavailableError for CUDA
  /// without a usable device. Trims a bounded output unless both are already valid there.
  void sync_to(Device device) const;
  /// Whether both buffers hold their current contents on `device`.
  bool is_valid_on(Device device) const;
  /// Where the freshest copy lives (that of the offsets): CUDA if only the device copy is
  /// valid, else the CPU. Ops run there unless told otherwise.
  Device residence() const { return offsets_.residence(); }

 private:
  friend struct core::StringTensorAccess;
  struct Bound;  // a bounded output's capacity and trim state (string_tensor.cpp)
  StringTensor(TensorBuffer offsets, TensorBuffer chars, Shape shape);
  // Trims a bounded output (once, thread-safe); nothing for any other tensor.
  void trim() const;
  TensorBuffer offsets_;
  mutable TensorBuffer chars_;  // shrunk in place by trim() only
  Shape shape_;
  std::unique_ptr<Bound> bound_;  // null unless made bounded
};

}  // namespace tensorbuf
