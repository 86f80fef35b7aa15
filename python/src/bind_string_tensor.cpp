// tb.StringTensor: strings in Arrow's large_string layout, to and from Python, NumPy and Arrow.
#include <algorithm>
#include <cstring>
#include <string>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "arguments.hpp"
#include "arrow_bridge.hpp"
#include "bindings.hpp"
#include "py_objects.hpp"
#include "to_strings.hpp"

namespace tensorbuf::python {

namespace py = pybind11;
using namespace pybind11::literals;

namespace {

// Nested lists of bytes in the tensor's shape (NumPy's tolist()): bytes for a scalar.
py::object nested_bytes(const StringTensor& strings, int dim, std::int64_t& next) {
  const Shape shape = strings.shape();
  if (dim == shape.rank()) {
    const std::string_view s = strings.at(next++);
    return py::bytes(s.data(), s.size());
  }
  py::list out(static_cast<std::size_t>(shape[dim]));
  for (std::int64_t i = 0; i < shape[dim]; ++i) {
    out[static_cast<std::size_t>(i)] = nested_bytes(strings, dim + 1, next);
  }
  return out;
}

// An 'S' array as wide as the longest string (at least 1, as NumPy makes b"").
py::array to_numpy(const StringTensor& strings) {
  std::size_t width = 1;
  for (std::int64_t i = 0; i < strings.size(); ++i) width = std::max(width, strings.at(i).size());
  const auto dims = strings.shape().dims();
  py::array out(py::dtype("S" + std::to_string(width)), std::vector<py::ssize_t>(dims.begin(), dims.end()));
  auto* data = static_cast<char*>(out.mutable_data());
  std::memset(data, 0, width * static_cast<std::size_t>(strings.size()));
  for (std::int64_t i = 0; i < strings.size(); ++i) {
    const std::string_view s = strings.at(i);
    if (!s.empty()) std::memcpy(data + static_cast<std::size_t>(i) * width, s.data(), s.size());
  }
  return out;
}

}  // namespace

py::object wrap_strings(StringTensor strings) {
  return py::cast(std::make_unique<PyStringTensor>(std::move(strings)));
}

void bind_string_tensor(py::module_& m) {
  py::class_<PyStringTensor>(m, "StringTensor",
      "A shaped tensor of byte strings (Arrow large_string layout), immutable. Made from str / "
      "bytes lists, NumPy 'S' / 'U' arrays and Arrow arrays, and by tensorbuf.substr.")
      .def(py::init([](py::handle strings) {
        auto out = std::make_unique<PyStringTensor>(StringTensor());
        out->strings = to_strings(strings);
        return out;
      }), "strings"_a)
      .def_property_readonly("shape", [](const PyStringTensor& self) {
        return shape_tuple(self.strings->shape());
      })
      .def_property_readonly("size", [](const PyStringTensor& self) { return self.strings->size(); })
      .def_property_readonly("num_chars", [](const PyStringTensor& self) {
        return self.strings->num_chars();
      }, "Total bytes of all strings.")
      .def_property_readonly("device", [](const PyStringTensor& self) {
        return self.strings->residence().to_string();
      })
      .def("__len__", [](const PyStringTensor& self) {
        if (self.strings->shape().rank() == 0) throw py::type_error("len() of a scalar StringTensor");
        return self.strings->shape()[0];
      })
      .def("to_list", [](const PyStringTensor& self) {
        std::int64_t next = 0;
        return nested_bytes(*self.strings, 0, next);
      }, "The strings as bytes, in nested lists of the tensor's shape (NumPy's tolist()).")
      .def("to_numpy", [](const PyStringTensor& self) { return to_numpy(*self.strings); },
           "An 'S' array of the tensor's shape (NumPy drops trailing NUL bytes when reading it).")
      .def("__arrow_c_array__", [](const PyStringTensor& self, py::handle requested_schema) {
        return export_arrow(self.strings, requested_schema);
      }, "requested_schema"_a = py::none(),
         "Arrow PyCapsule interface: a large_binary array (large_string when asked) over the "
         "tensor's memory, flattened row-major; no copy.")
      .def("__repr__", [](const PyStringTensor& self) {
        return "tensorbuf.StringTensor(shape=" + self.strings->shape().to_string() + ", " +
               std::to_string(self.strings->num_chars()) + " bytes)";
      });
}

}  // namespace tensorbuf::python
