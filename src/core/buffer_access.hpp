// The library's way to a TensorBuffer's Storage: the public header keeps it private, so only
// code that includes this internal header (ops, tests) reaches it.
#pragma once

#include <memory>
#include <utility>

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
  // A fixed-size buffer over caller memory: validates `data` for `shape` and `type` on
  // `device` (TensorBuffer::borrow's rules), then fills in memory's data, size and side.
  // Defined in tensor_buffer_interop.cpp; DLPack imports use it with their own release.
  static TensorBuffer borrow(void* data, const Shape& shape, DataType type, Device device,
                             BorrowedMemory memory);
};

}  // namespace tensorbuf::core
