// The Python spellings of tensorbuf's argument types (spec/interop.md I3).
#pragma once

#include <optional>
#include <string>

#include <pybind11/pybind11.h>

#include "tensorbuf/types.hpp"

namespace tensorbuf::python {

namespace py = pybind11;

// The words are tensorbuf/spellings.hpp's, as on the command line.
// None, "cpu", "cuda", "cuda:N", or anything whose str() is one (torch.device).
std::optional<Device> parse_device(py::handle device);
// "default" | "error" | "drop".
OutOfBoundsPolicy parse_out_of_bounds(py::handle policy);
// "byte" | "utf8_char".
SubstrUnit parse_unit(py::handle unit);
// None (the library's stream), an int cudaStream_t, an object with __cuda_stream__, or a torch
// stream (.cuda_stream).
Stream parse_stream(py::handle stream);
// A dtype name ("uint8", "bfloat16", "f4", ...), a NumPy dtype or scalar type, or a torch dtype.
DataType parse_dtype(py::handle dtype);
// A sequence of ints (or one int: a vector of that length).
Shape parse_shape(py::handle shape);
// m._spellings: {"out_of_bounds": ("default", "error", "drop"), "unit": (...)}, the words of the
// arguments above that take one of a few, for python/write_stubs.py's Literal[...] types.
void bind_spellings(py::module_& m);
py::tuple shape_tuple(const Shape& shape);

// str(value), and the name of value's type, for error messages.
std::string text_of(py::handle value);
std::string type_name(py::handle value);

// The integer DLPack's __dlpack__(stream=...) takes for a consumer on `stream`: 1 (the legacy
// default stream, with which the library's stream is ordered) for the library's own.
py::object dlpack_stream_argument(Stream stream);

}  // namespace tensorbuf::python
