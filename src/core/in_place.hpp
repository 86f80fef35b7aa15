// The aliasing rule of every in-place op: an input that shares memory with the tensor being
// written (the tensor itself, two borrows of one array, an export borrowed back) is read in full
// before any write, as NumPy's `t[t] = u` is.
#pragma once

#include <utility>

#include "core/backend_run.hpp"
#include "core/buffer_access.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::core {

// Overlapping memory on some side, not object or storage identity (Storage::shares_memory_with).
inline bool shares_memory(const TensorBuffer& a, const TensorBuffer& b) {
  return BufferAccess::storage(a).shares_memory_with(BufferAccess::storage(b));
}

// Calls `run(out)`, which writes the op's result into `out`: `tensor` itself, or, when an input
// aliases it, a new buffer copied into `tensor` afterwards on `device` (in stream order, no host
// wait). `run` throws before anything reaches `tensor`, so an error leaves it unchanged.
template <class Run>
void run_in_place(TensorBuffer& tensor, bool aliased, Device device, Stream stream, Run&& run) {
  if (!aliased) {
    std::forward<Run>(run)(tensor);
    return;
  }
  TensorBuffer result =
      TensorBuffer::create_uninitialized(BufferAccess::shape(tensor), tensor.data_type());
  std::forward<Run>(run)(result);
  BackendRun backend(device, stream);
  backend.copy(tensor, result);
  backend.finish();
}

}  // namespace tensorbuf::core
