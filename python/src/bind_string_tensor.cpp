// tb.StringTensor: strings in Arrow's large_string layout, to and from Python, NumPy and Arrow.
#include <algorithm>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>
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

// One string as bytes, or as str (strict UTF-8: bad bytes raise UnicodeDecodeError).
py::object element(std::string_view s, bool decode) {
  if (!decode) return py::bytes(s.data(), s.size());
  PyObject* text = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "strict");
  if (text == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(text);
}

// Nested lists of bytes (str when decoding) in the tensor's shape (NumPy's tolist()): one
// element for a scalar.
py::object nested_list(const StringTensor& strings, const Shape& shape, int dim, std::int64_t& next,
                       bool decode) {
  if (dim == shape.rank()) return element(strings.at(next++), decode);
  py::list out(static_cast<std::size_t>(shape[dim]));
  for (std::int64_t i = 0; i < shape[dim]; ++i) {
    out[static_cast<std::size_t>(i)] = nested_list(strings, shape, dim + 1, next, decode);
  }
  return out;
}

// self[i] along the first dim, negative i from the end: bytes for a 1-D tensor, else a new
// StringTensor of the row (a copy: rows share no offsets buffer).
py::object item(const StringTensor& strings, std::int64_t i) {
  const Shape shape = strings.shape();
  if (shape.rank() == 0) throw py::index_error("a scalar StringTensor cannot be indexed");
  const std::int64_t n = shape[0];
  if (i < -n || i >= n) {
    throw py::index_error("index " + std::to_string(i) + " is out of bounds for dim 0 of size " +
                          std::to_string(n));
  }
  if (i < 0) i += n;
  if (shape.rank() == 1) return element(strings.at(i), false);
  const std::vector<std::int64_t>& dims = shape.dims();
  const Shape row_shape(std::vector<std::int64_t>(dims.begin() + 1, dims.end()));
  const std::int64_t row = row_shape.num_elements();
  std::vector<std::string_view> values;
  values.reserve(static_cast<std::size_t>(row));
  for (std::int64_t k = 0; k < row; ++k) values.push_back(strings.at(i * row + k));
  return wrap_strings(StringTensor::from_strings(std::span<const std::string_view>(values), row_shape));
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
  m.def("_strings_general_path", [](py::handle strings) {
    return wrap_strings(strings_general_path(strings));
  }, "strings"_a);
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
      .def("__getitem__", [](const PyStringTensor& self, std::int64_t i) {
        return item(*self.strings, i);
      }, "i"_a, "self[i] along the first dim (negative from the end; IndexError out of range): "
         "bytes for a 1-D tensor, else a StringTensor of the row (copied).")
      .def("__iter__", [](const PyStringTensor& self) {
        const Shape shape = self.strings->shape();
        if (shape.rank() == 0) throw py::type_error("iteration over a scalar StringTensor");
        py::list items(static_cast<std::size_t>(shape[0]));
        for (std::int64_t i = 0; i < shape[0]; ++i) {
          items[static_cast<std::size_t>(i)] = item(*self.strings, i);
        }
        return py::iter(items);
      }, "The rows along the first dim, as self[i] gives them.")
      .def("to_list", [](const PyStringTensor& self, bool decode) {
        std::int64_t next = 0;
        return nested_list(*self.strings, self.strings->shape(), 0, next, decode);
      }, "decode"_a = false,
         "The strings in nested lists of the tensor's shape (NumPy's tolist()): bytes, or str "
         "decoded as UTF-8 when decode=True (UnicodeDecodeError on bytes that are not UTF-8).")
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
