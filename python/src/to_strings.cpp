#include "to_strings.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
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

inline char* put_utf8(char* out, std::uint32_t c) {
  if (c < 0x80) {
    *out++ = static_cast<char>(c);
  } else if (c < 0x800) {
    *out++ = static_cast<char>(0xC0 | (c >> 6));
    *out++ = static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    *out++ = static_cast<char>(0xE0 | (c >> 12));
    *out++ = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    *out++ = static_cast<char>(0x80 | (c & 0x3F));
  } else {
    *out++ = static_cast<char>(0xF0 | (c >> 18));
    *out++ = static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    *out++ = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    *out++ = static_cast<char>(0x80 | (c & 0x3F));
  }
  return out;
}

// The UTF-8 size of a str, encoded here from its code points: PyUnicode_AsUTF8AndSize would
// allocate and keep a UTF-8 copy inside every non-ASCII str. -1 for a lone surrogate.
// Encodes a non-ASCII str as UTF-8 at out, which has room for 4 bytes per code point
// (2 for a 1-byte-kind str); null for a lone surrogate, which has no UTF-8 (the general path
// then raises Python's own UnicodeEncodeError). Encoded here rather than by
// PyUnicode_AsUTF8AndSize, which would allocate and keep a UTF-8 copy inside every str.
template <class Unit>
char* put_units(char* out, const Unit* units, Py_ssize_t length) {
  for (Py_ssize_t i = 0; i < length; ++i) {
    const std::uint32_t c = units[i];
    if (sizeof(Unit) > 1 && c >= 0xD800 && c < 0xE000) return nullptr;
    out = put_utf8(out, c);
  }
  return out;
}

// The most bytes put_str may write for p.
std::size_t utf8_bound(PyObject* p) {
  const auto length = static_cast<std::size_t>(PyUnicode_GET_LENGTH(p));
  switch (PyUnicode_KIND(p)) {
    case PyUnicode_1BYTE_KIND: return 2 * length;
    case PyUnicode_2BYTE_KIND: return 3 * length;
    default: return 4 * length;
  }
}

char* put_str(char* out, PyObject* p) {
  const Py_ssize_t length = PyUnicode_GET_LENGTH(p);
  switch (PyUnicode_KIND(p)) {
    case PyUnicode_1BYTE_KIND: return put_units(out, PyUnicode_1BYTE_DATA(p), length);
    case PyUnicode_2BYTE_KIND: return put_units(out, PyUnicode_2BYTE_DATA(p), length);
    default: return put_units(out, PyUnicode_4BYTE_DATA(p), length);
  }
}

// Bytes appended without zero-filling (std::string::resize would), grown by doubling.
class ByteSink {
 public:
  explicit ByteSink(std::size_t capacity) { grow(capacity); }
  ~ByteSink() { std::free(data_); }
  ByteSink(const ByteSink&) = delete;
  ByteSink& operator=(const ByteSink&) = delete;
  // Room for n more bytes at end().
  char* reserve(std::size_t n) {
    if (size_ + n > capacity_) grow(std::max(size_ + n, 2 * capacity_));
    return data_ + size_;
  }
  void advance_to(char* end) { size_ = static_cast<std::size_t>(end - data_); }
  std::size_t size() const { return size_; }
  // The bytes as a TensorBuffer that owns them (freed when the last user lets go): no copy.
  // cache_mirror: nobody writes them after this, so a CUDA copy stays valid across calls.
  TensorBuffer release_as_buffer() {
    if (size_ < capacity_ / 2) grow(size_);  // give back what doubling over-reserved
    char* data = data_;
    BorrowOptions options;
    options.cache_mirror = true;
    options.release = [data](Stream) { std::free(data); };
    TensorBuffer buffer = TensorBuffer::borrow(static_cast<void*>(size_ == 0 ? nullptr : data),
                                               Shape{static_cast<std::int64_t>(size_)},
                                               DataType::kUInt8, Device::cpu(), std::move(options));
    data_ = nullptr;  // the buffer's now, freed by its release (borrow() throwing leaves it ours)
    return buffer;
  }

 private:
  void grow(std::size_t capacity) {  // or shrink
    void* grown = std::realloc(data_, std::max<std::size_t>(capacity, 1));
    if (grown == nullptr) throw std::bad_alloc();
    data_ = static_cast<char*>(grown);
    capacity_ = std::max<std::size_t>(capacity, 1);
  }
  char* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

inline char* put_bytes(char* out, const char* source, std::size_t n) {
  if (n <= 16) {  // most words: a loop, not a memcpy call
    for (std::size_t i = 0; i < n; ++i) out[i] = source[i];
  } else {
    std::memcpy(out, source, n);
  }
  return out + n;
}

// A flat list or tuple of str / bytes (the common case: a column of words) straight into the
// offsets and chars, in one pass over the items (each str object is touched once: for 100k
// fresh strings, cache misses are most of the cost), the chars buffer taking the bytes' memory
// as it is; nullopt for anything else (nested lists, other items, lone surrogates), which takes
// the general path.
std::optional<StringTensor> from_flat_sequence(PyObject* sequence) {
  const Py_ssize_t count = PySequence_Fast_GET_SIZE(sequence);
  PyObject** items = PySequence_Fast_ITEMS(sequence);
  TensorBuffer offsets = TensorBuffer::create_fixed_size(Shape{count + 1}, DataType::kInt64);
  auto* offset = static_cast<std::int64_t*>(offsets.overwrite_host_bytes());
  offset[0] = 0;
  ByteSink sink(static_cast<std::size_t>(count) * 8);
  constexpr Py_ssize_t kAhead = 16;  // the objects are scattered in memory: fetch ahead
  for (Py_ssize_t i = 0; i < count; ++i) {
    if (i + kAhead < count) {
      __builtin_prefetch(items[i + kAhead]);
      __builtin_prefetch(reinterpret_cast<const char*>(items[i + kAhead]) + 64);
    }
    PyObject* item = items[i];
    if (PyUnicode_Check(item)) {
#if PY_VERSION_HEX < 0x030C0000
      if (!PyUnicode_IS_READY(item)) return std::nullopt;  // a legacy str (deprecated C API)
#endif
      const Py_ssize_t length = PyUnicode_GET_LENGTH(item);
      if (PyUnicode_IS_ASCII(item)) {
        char* out = sink.reserve(static_cast<std::size_t>(length));
        sink.advance_to(put_bytes(out, static_cast<const char*>(PyUnicode_DATA(item)),
                                  static_cast<std::size_t>(length)));
      } else {
        char* end = put_str(sink.reserve(utf8_bound(item)), item);
        if (end == nullptr) return std::nullopt;
        sink.advance_to(end);
      }
    } else if (PyBytes_Check(item)) {
      const auto size = static_cast<std::size_t>(PyBytes_GET_SIZE(item));
      sink.advance_to(put_bytes(sink.reserve(size), PyBytes_AS_STRING(item), size));
    } else {
      return std::nullopt;
    }
    offset[i + 1] = static_cast<std::int64_t>(sink.size());
  }
  return StringTensor::from_buffers(std::move(offsets), sink.release_as_buffer(), Shape{count});
}

StringTensor from_nested(py::handle object) {
  const Nested nested = flatten_nested(object, "strings");
  std::vector<std::string_view> views;
  views.reserve(nested.leaves.size());
  for (py::handle leaf : nested.leaves) views.push_back(bytes_of(leaf));
  return StringTensor::from_strings(std::span<const std::string_view>(views), Shape(nested.dims));
}

StringTensor from_python(py::handle object) {
  if (PyList_Check(object.ptr()) || PyTuple_Check(object.ptr())) {
    if (std::optional<StringTensor> flat = from_flat_sequence(object.ptr())) return std::move(*flat);
  }
  return from_nested(object);
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

StringTensor strings_general_path(py::handle object) { return from_nested(object); }

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
