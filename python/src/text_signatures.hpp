// inspect.signature and help() for the bound functions: CPython reads a builtin function's
// signature from a docstring that starts "name(a, b=1, *, c=None)\n--\n\n" (its
// __text_signature__); pybind11 writes "name(a: T, b: U = 1, ...) -> R" instead, which
// inspect cannot read. The text signature is made from pybind11's own line (the names,
// markers and defaults of the py::arg list) and put before it, so __doc__ still starts with
// pybind11's typed line (python/write_stubs.py reads it).
#pragma once

#include <pybind11/pybind11.h>

namespace tensorbuf::python {

// Gives `function` (a pybind11 function) its text signature; false where it has no pybind11
// signature line (an overloaded function, or one bound without signatures).
bool add_text_signature(pybind11::handle function);

// The same for every function of `m`, and every method and static method of its classes. Run
// after everything is bound.
void add_text_signatures(pybind11::module_& m);

}  // namespace tensorbuf::python
