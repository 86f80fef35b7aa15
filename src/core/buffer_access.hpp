// The library's way to a TensorBuffer's Storage: the public header keeps it private, so only
// code that includes this internal header (ops, tests) reaches it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include "core/error_macros.hpp"
#include "core/storage.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::core {

struct BufferAccess {
  static Storage& storage(const TensorBuffer& buffer) { return *buffer.storage_; }
  // The shape without the copy TensorBuffer::shape() makes (op planning, once per call).
  static const Shape& shape(const TensorBuffer& buffer) { return buffer.shape_; }
  // A reference that keeps the storage alive (DLPack exports).
  static std::shared_ptr<Storage> shared_storage(const TensorBuffer& buffer) {
    return buffer.storage_;
  }
  // A second TensorBuffer over the same storage (same dtype, shape and memory, no copy): the C
  // API hands a handle's buffer to an API that takes TensorBuffers by value (from_buffers).
  static TensorBuffer share(const TensorBuffer& buffer) {
    return TensorBuffer(buffer.type_, buffer.shape_, buffer.dynamic_, buffer.storage_);
  }
  // An output buffer: create_uninitialized's (nothing allocated until the first write), dynamic
  // when `dynamic` (an op whose result is dynamic when its input is).
  static TensorBuffer uninitialized(const Shape& shape, DataType type, bool dynamic) {
    TensorBuffer buffer = TensorBuffer::create_uninitialized(shape, type);
    buffer.dynamic_ = dynamic;
    return buffer;
  }
  // Shrinks a rank-1 buffer to its first `elements` elements in place (Storage::shrink: same
  // memory, nothing copied). A non-const call: nothing else may use `buffer` meanwhile.
  static void shrink(TensorBuffer& buffer, std::int64_t elements) {
    TENSORBUF_EXPECTS(buffer.shape_.rank() == 1 && elements >= 0, InternalError,
                      str_cat("BufferAccess::shrink of shape ", buffer.shape_.to_string(), " to ",
                              elements, " elements"));
    buffer.storage_->shrink(static_cast<std::size_t>(elements) * buffer.type_size());
    buffer.shape_ = Shape{elements};
  }
  // A fixed-size buffer over caller memory: validates `data` for `shape` and `type` on
  // `device` (TensorBuffer::borrow's rules), then fills in memory's data, size and side.
  // Defined in tensor_buffer_interop.cpp; DLPack imports use it with their own release.
  static TensorBuffer borrow(void* data, const Shape& shape, DataType type, Device device,
                             BorrowedMemory memory);
};

}  // namespace tensorbuf::core
