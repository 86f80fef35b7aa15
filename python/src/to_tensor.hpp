// Python objects as TensorBuffers: without a copy where the object's memory can be borrowed
// (spec/interop.md I3).
#pragma once

#include <optional>
#include <vector>

#include <pybind11/pybind11.h>

#include "py_objects.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::python {

namespace py = pybind11;

// What a call does with an argument.
enum class Access { kRead, kWrite };

struct ConvertOptions {
  const char* name = "tensor";  // the argument, for messages
  Access access = Access::kRead;
  // The dtype values are converted to, with the library's (saturating) rules: copied Python
  // scalars and lists, and NumPy arrays and scalars (the buffer protocol) of another dtype (an
  // op's updates take the tensor's). Unset: Python values are bool, int64 or float64 after
  // their kind, and arrays keep their dtype. DLPack, __cuda_array_interface__ and
  // tb.TensorBuffer arguments always keep theirs (torch, too, refuses mixed dtypes).
  std::optional<DataType> values_as;
  Stream stream;  // the stream the op runs on (a DLPack producer is asked to be ready for it)
};

// An argument as a TensorBuffer: the caller's tb.TensorBuffer itself, or one made for this call
// over the object's memory (borrowed: the buffer protocol, DLPack, __cuda_array_interface__) or
// from copied values (Python scalars and nested lists, non-contiguous arrays read by an op).
class TensorArg {
 public:
  explicit TensorArg(PyTensorBuffer* object) : object_(object) {}
  explicit TensorArg(TensorBuffer made) : made_(std::move(made)) {}
  TensorBuffer& get() { return object_ != nullptr ? object_->buffer : *made_; }
  // The tb.TensorBuffer to lock while the op runs (null for a buffer made for the call).
  PyTensorBuffer* object() const { return object_; }

 private:
  PyTensorBuffer* object_ = nullptr;
  std::optional<TensorBuffer> made_;
};

// Accepts a tb.TensorBuffer, the buffer protocol (NumPy arrays, bytes, memoryview), __dlpack__
// (torch, CuPy, JAX), __cuda_array_interface__, and Python scalars and nested lists (copied).
// Access::kWrite needs memory the op can write in place: a writable, C-contiguous array or a
// DLPack tensor (InvalidArgumentError, a ValueError, otherwise; nothing is changed).
TensorArg to_tensor(py::handle object, const ConvertOptions& options);

// Whether `object` is a Python scalar or a (nested) list / tuple: values to be copied.
bool is_python_values(py::handle object);

// A tb.TensorBuffer over the object (tb.asarray).
TensorBuffer as_buffer(py::handle object, py::handle device, py::handle stream, py::handle copy);

}  // namespace tensorbuf::python
