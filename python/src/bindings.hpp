// The parts of the module, each bound by its own file.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "tensorbuf/string_tensor.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::python {

void bind_tensor_buffer(pybind11::module_& m);  // bind_tensor_buffer.cpp
void bind_string_tensor(pybind11::module_& m);  // bind_string_tensor.cpp
void bind_ops(pybind11::module_& m);            // bind_ops.cpp: the op table
void bind_processing(pybind11::module_& m);     // bind_processing.cpp: the Processor

// New Python objects owning `buffer` / `strings`.
pybind11::object wrap_buffer(TensorBuffer buffer);
pybind11::object wrap_strings(StringTensor strings);

// A NumPy array over the buffer's host memory (a DLPack export keeps it alive and in place), or
// a copy when asked or when the memory lives on a device (read-only like a view unless the copy
// was asked for, so that np.asarray and read_only agree). TypeError for bfloat16, which NumPy
// lacks. The caller holds the buffer's lock, if it has one (bind_tensor_buffer.cpp).
pybind11::array numpy_view(TensorBuffer& buffer, bool copy);
// Whether views of the buffer's memory (NumPy, DLPack) are read-only: a read-only borrow, or
// bytes referenced by load_buffer until the first write copies them (never written in place).
bool views_read_only(const TensorBuffer& buffer);

}  // namespace tensorbuf::python
