// The parts of the module, each bound by its own file.
#pragma once

#include <pybind11/pybind11.h>

#include "tensorbuf/string_tensor.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::python {

void bind_tensor_buffer(pybind11::module_& m);  // bind_tensor_buffer.cpp
void bind_string_tensor(pybind11::module_& m);  // bind_string_tensor.cpp
void bind_ops(pybind11::module_& m);            // bind_ops.cpp

// New Python objects owning `buffer` / `strings`.
pybind11::object wrap_buffer(TensorBuffer buffer);
pybind11::object wrap_strings(StringTensor strings);

}  // namespace tensorbuf::python
