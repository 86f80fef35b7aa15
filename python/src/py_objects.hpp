// The C++ side of the Python objects tb.TensorBuffer and tb.StringTensor.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include <pybind11/pybind11.h>

#include "tensorbuf/string_tensor.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::python {

namespace py = pybind11;

// A tb.TensorBuffer. Ops run without the GIL, so two Python threads may reach the same buffer
// at once, and a C++ TensorBuffer allows no non-const call concurrent with any other call:
// every use holds `mutex` (BufferLocks).
struct PyTensorBuffer {
  explicit PyTensorBuffer(TensorBuffer b) : buffer(std::move(b)) {}
  TensorBuffer buffer;
  std::mutex mutex;
};

// A tb.StringTensor: immutable once made (no Python method changes it), shared with the Arrow
// exports that point into its memory.
struct PyStringTensor {
  explicit PyStringTensor(StringTensor s)
      : strings(std::make_shared<const StringTensor>(std::move(s))) {}
  std::shared_ptr<const StringTensor> strings;
};

// Holds the mutexes of the given buffers (each once, in address order, so that two calls never
// deadlock). Made with the GIL held; waits for a busy buffer without it.
class BufferLocks {
 public:
  explicit BufferLocks(std::vector<PyTensorBuffer*> buffers);

 private:
  std::vector<std::unique_lock<std::mutex>> locks_;
};

// Runs `f` on the buffer under its lock (for the methods of tb.TensorBuffer).
template <class F>
decltype(auto) with_lock(PyTensorBuffer& self, F&& f) {
  BufferLocks lock({&self});
  return f(self.buffer);
}

}  // namespace tensorbuf::python
