// tensorbuf's exceptions as Python classes (spec/interop.md I3).
#pragma once

#include <pybind11/pybind11.h>

namespace tensorbuf::python {

// Adds tb.Error(Exception) and InvalidArgumentError(Error, ValueError),
// OutOfRangeError(Error, IndexError), UnavailableError(Error, RuntimeError),
// ResourceExhaustedError(Error, MemoryError), InternalError(Error, RuntimeError) to `m`, and
// translates the C++ errors to them with the C++ message.
void bind_errors(pybind11::module_& m);

}  // namespace tensorbuf::python
