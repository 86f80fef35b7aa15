#include "to_strings.hpp"

#include <cstring>
#include <string>
#include <span>
#include <string_view>
#include <vector>

#include <pybind11/stl.h>

#include "arguments.hpp"
#include "arrow_bridge.hpp"
#include "nested.hpp"
#include "py_objects.hpp"
#include "tensorbuf/errors.hpp"

namespace tensorbuf::python {

namespace {

std::string_view bytes_of(py::handle item) {
  PyObject* p = item.ptr();
  if (PyUnicode_Check(p)) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(p, &size);  // cached in the str object
    if (data == nullptr) throw py::error_already_set();
    return {data, static_cast<std::size_t>(size)};
  }
  if (PyBytes_Check(p)) return {PyBytes_AS_STRING(p), static_cast<std::size_t>(PyBytes_GET_SIZE(p))};
  throw InvalidArgumentError("strings: a " + type_name(item) +
                             " is not str or bytes");
}

StringTensor from_python(py::handle object) {
  const Nested nested = flatten_nested(object, "strings");
  std::vector<std::string_view> views;
  views.reserve(nested.leaves.size());
  for (py::handle leaf : nested.leaves) views.push_back(bytes_of(leaf));
  return StringTensor::from_strings(std::span<const std::string_view>(views), Shape(nested.dims));
}

void append_utf8(std::string& out, std::uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code <= 0x10FFFF) {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    throw InvalidArgumentError("strings: code point " + std::to_string(code) +
                               " of a 'U' array is not Unicode");
  }
}

// The bytes of a C-contiguous array, whatever its dtype.
class RawBytes {
 public:
  explicit RawBytes(py::handle array) {
    if (PyObject_GetBuffer(array.ptr(), &view_, PyBUF_SIMPLE) != 0) throw py::error_already_set();
  }
  ~RawBytes() { PyBuffer_Release(&view_); }
  RawBytes(const RawBytes&) = delete;
  RawBytes& operator=(const RawBytes&) = delete;
  const char* data() const { return static_cast<const char*>(view_.buf); }

 private:
  Py_buffer view_{};
};

// NumPy 'S' and 'U' arrays (fixed-width, NUL-padded); 'O' arrays through their list.
StringTensor from_numpy(py::handle object) {
  py::object numpy = py::module_::import("numpy");
  py::object array = numpy.attr("ascontiguousarray")(object);
  const std::string kind = array.attr("dtype").attr("kind").cast<std::string>();
  if (kind == "O") return from_python(array.attr("tolist")());
  const Shape shape(array.attr("shape").cast<std::vector<std::int64_t>>());
  const auto itemsize = array.attr("dtype").attr("itemsize").cast<std::size_t>();
  const auto count = static_cast<std::size_t>(shape.num_elements());
  RawBytes raw(array);
  const char* data = raw.data();
  std::vector<std::string_view> views(count);
  std::vector<std::string> encoded;
  if (kind == "S") {
    for (std::size_t i = 0; i < count; ++i) {
      std::size_t n = itemsize;
      while (n > 0 && data[i * itemsize + n - 1] == '\0') --n;
      views[i] = {data + i * itemsize, n};
    }
  } else if (kind == "U") {
    encoded.resize(count);
    const std::size_t width = itemsize / 4;
    for (std::size_t i = 0; i < count; ++i) {
      std::size_t n = width;
      std::uint32_t code = 0;
      while (n > 0 && (std::memcpy(&code, data + (i * width + n - 1) * 4, 4), code == 0)) --n;
      for (std::size_t c = 0; c < n; ++c) {
        std::memcpy(&code, data + (i * width + c) * 4, 4);
        append_utf8(encoded[i], code);
      }
      views[i] = encoded[i];
    }
  } else {
    throw InvalidArgumentError("strings: a NumPy array of dtype " +
                               py::str(array.attr("dtype")).cast<std::string>() +
                               " holds no strings (take 'S', 'U' or object arrays)");
  }
  return StringTensor::from_strings(std::span<const std::string_view>(views), shape);
}

bool is_numpy_array(py::handle object) {
  return py::hasattr(object, "__array_interface__") && py::hasattr(object, "dtype");
}

}  // namespace

std::shared_ptr<const StringTensor> to_strings(py::handle object) {
  if (py::isinstance<PyStringTensor>(object)) return object.cast<PyStringTensor&>().strings;
  PyObject* p = object.ptr();
  StringTensor strings;
  if (PyUnicode_Check(p) || PyBytes_Check(p) || PyList_Check(p) || PyTuple_Check(p)) {
    strings = from_python(object);
  } else if (py::hasattr(object, "__arrow_c_array__")) {
    strings = import_arrow(object);
  } else if (is_numpy_array(object)) {
    strings = from_numpy(object);
  } else {
    throw py::type_error("strings: cannot take a " +
                         type_name(object) +
                         " (tensorbuf takes tb.StringTensor, str / bytes and lists of them, NumPy "
                         "'S' / 'U' arrays and Arrow arrays with __arrow_c_array__)");
  }
  return std::make_shared<const StringTensor>(std::move(strings));
}

}  // namespace tensorbuf::python
