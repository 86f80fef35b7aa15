// The library's way to a TensorBuffer's Storage: the public header keeps it private, so only
// code that includes this internal header (ops, tests) reaches it.
#pragma once

#include "core/storage.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::core {

struct BufferAccess {
  static Storage& storage(const TensorBuffer& buffer) { return *buffer.storage_; }
};

}  // namespace tensorbuf::core
