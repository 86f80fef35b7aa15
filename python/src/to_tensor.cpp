#include "to_tensor.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "arguments.hpp"
#include "tensorbuf/spellings.hpp"
#include "dlpack_bridge.hpp"
#include "gil.hpp"
#include "nested.hpp"
#include "tensorbuf/errors.hpp"
#include "torch_autograd.hpp"
#include "torch_objects.hpp"

namespace tensorbuf::python {

namespace {


// The element type of a buffer-protocol format (struct module syntax) of `itemsize` bytes.
DataType type_of_format(const char* format, Py_ssize_t itemsize, const char* name) {
  std::string f = format == nullptr ? "B" : format;
  const std::string original = f;
  if (!f.empty() && (f[0] == '>' || f[0] == '!') && itemsize > 1) {
    throw InvalidArgumentError(std::string(name) + ": big-endian data (format '" + original +
                               "') is not supported; convert it to native byte order first");
  }
  if (!f.empty() && std::strchr("@=<>!|", f[0]) != nullptr) f.erase(0, 1);
  if (f.size() == 1) {
    switch (f[0]) {
      case '?': return DataType::kBool;
      case 'B': return DataType::kUInt8;
      case 'b': return DataType::kInt8;
      case 'h': if (itemsize == 2) return DataType::kInt16; break;
      case 'i': case 'l': case 'q':
        if (itemsize == 4) return DataType::kInt32;
        if (itemsize == 8) return DataType::kInt64;
        break;
      case 'e': return DataType::kFloat16;
      case 'f': return DataType::kFloat32;
      case 'd': return DataType::kFloat64;
      default: break;
    }
  }
  throw InvalidArgumentError(std::string(name) + ": unsupported element format '" + original +
                             "' (tensorbuf has " + spelling_list<DataType>() + ")");
}

// A Py_buffer held while a TensorBuffer borrows its memory; released with the GIL.
struct HeldView {
  Py_buffer view{};
  ~HeldView() { PyBuffer_Release(&view); }
};

// Copies a strided view into a new contiguous buffer (an op only reads it).
TensorBuffer copy_strided(const Py_buffer& view, const Shape& shape, DataType type) {
  TensorBuffer out = TensorBuffer::create_fixed_size(shape, type);
  if (shape.num_elements() == 0) return out;
  auto* dst = static_cast<std::byte*>(out.overwrite_host_bytes());
  const auto item = static_cast<std::size_t>(view.itemsize);
  std::vector<std::int64_t> index(static_cast<std::size_t>(shape.rank()), 0);
  for (std::int64_t n = 0; n < shape.num_elements(); ++n) {
    const auto* src = static_cast<const std::byte*>(view.buf);
    for (int d = 0; d < shape.rank(); ++d) src += index[static_cast<std::size_t>(d)] * view.strides[d];
    std::memcpy(dst + static_cast<std::size_t>(n) * item, src, item);
    for (int d = shape.rank() - 1; d >= 0; --d) {
      if (++index[static_cast<std::size_t>(d)] < shape[d]) break;
      index[static_cast<std::size_t>(d)] = 0;
    }
  }
  return out;
}

struct Converted {
  TensorBuffer buffer;
  bool copied = false;
};

Converted from_buffer_protocol(py::handle object, const ConvertOptions& options) {
  auto* held = new HeldView;
  const int flags = PyBUF_RECORDS_RO | (options.access == Access::kWrite ? PyBUF_WRITABLE : 0);
  if (PyObject_GetBuffer(object.ptr(), &held->view, flags) != 0) {
    delete held;
    if (options.access == Access::kWrite && (PyErr_ExceptionMatches(PyExc_BufferError) ||
                                                    PyErr_ExceptionMatches(PyExc_ValueError))) {
      PyErr_Clear();
      throw InvalidArgumentError(std::string(options.name) + ": an in-place op writes the " +
                                 type_name(object) + " itself, and this one is read-only");
    }
    throw py::error_already_set();
  }
  try {
    const Py_buffer& view = held->view;
    std::vector<std::int64_t> dims(view.shape, view.shape + view.ndim);
    const Shape shape(std::move(dims));
    const DataType type = type_of_format(view.format, view.itemsize, options.name);
    const bool contiguous = PyBuffer_IsContiguous(&view, 'C') != 0;
    const bool aligned = reinterpret_cast<std::uintptr_t>(view.buf) % static_cast<std::uintptr_t>(view.itemsize) == 0;
    if (!contiguous || !aligned) {
      if (options.access == Access::kWrite) {
        throw InvalidArgumentError(std::string(options.name) + ": an in-place op needs a " +
                                   (contiguous ? "element-aligned" : "C-contiguous") + " " +
                                   type_name(object) + " (it writes that memory itself)");
      }
      Converted copied{copy_strided(view, shape, type), true};
      delete held;
      return copied;
    }
    void* data = shape.num_elements() == 0 ? nullptr : view.buf;
    BorrowOptions borrow;
    borrow.read_only = view.readonly != 0;
    borrow.release = [held](Stream) { with_gil([held] { delete held; }); };
    TensorBuffer buffer = borrow.read_only
        ? TensorBuffer::borrow(static_cast<const void*>(data), shape, type, Device::cpu(), std::move(borrow))
        : TensorBuffer::borrow(data, shape, type, Device::cpu(), std::move(borrow));
    return {std::move(buffer), false};
  } catch (...) {
    delete held;  // borrow() never calls release when it throws
    throw;
  }
}

DataType type_of_typestr(const std::string& typestr, const char* name) {
  if (typestr.size() >= 3 && typestr[0] != '>') {
    const std::string kind = typestr.substr(1);
    if (kind == "b1") return DataType::kBool;
    if (kind == "u1") return DataType::kUInt8;
    if (kind == "i1") return DataType::kInt8;
    if (kind == "i2") return DataType::kInt16;
    if (kind == "i4") return DataType::kInt32;
    if (kind == "i8") return DataType::kInt64;
    if (kind == "f2") return DataType::kFloat16;
    if (kind == "f4") return DataType::kFloat32;
    if (kind == "f8") return DataType::kFloat64;
  }
  throw InvalidArgumentError(std::string(name) + ": unsupported __cuda_array_interface__ typestr '" +
                             typestr + "'");
}

int cuda_device_of(py::handle object) {
  if (!py::hasattr(object, "device")) return 0;
  py::object device = object.attr("device");
  for (const char* attribute : {"id", "index"}) {
    if (py::hasattr(device, attribute) && !device.attr(attribute).is_none()) {
      return device.attr(attribute).cast<int>();
    }
  }
  return 0;
}

Converted from_cuda_array_interface(py::handle object, const ConvertOptions& options) {
  py::dict cai = object.attr("__cuda_array_interface__");
  const Shape shape = parse_shape(cai["shape"]);
  const DataType type = type_of_typestr(cai["typestr"].cast<std::string>(), options.name);
  py::tuple data = cai["data"];
  const auto address = data[0].cast<std::uintptr_t>();
  const bool read_only = data[1].cast<bool>();
  if (cai.contains("strides") && !cai["strides"].is_none()) {
    py::tuple strides = cai["strides"];
    std::int64_t expected = static_cast<std::int64_t>(type_size(type));
    for (int d = shape.rank() - 1; d >= 0; --d) {
      if (shape[d] != 1 && strides[static_cast<std::size_t>(d)].cast<std::int64_t>() != expected) {
        throw InvalidArgumentError(std::string(options.name) +
                                   ": only C-contiguous __cuda_array_interface__ arrays are taken");
      }
      expected *= shape[d];
    }
  }
  BorrowOptions borrow;
  borrow.read_only = read_only;
  if (cai.contains("stream") && !cai["stream"].is_none()) {
    borrow.ready_stream = Stream{reinterpret_cast<void*>(cai["stream"].cast<std::uintptr_t>())};
  }
  auto* owner = new py::object(py::reinterpret_borrow<py::object>(object));
  borrow.release = [owner](Stream) { with_gil([owner] { delete owner; }); };
  void* pointer = shape.num_elements() == 0 ? nullptr : reinterpret_cast<void*>(address);
  try {
    const Device device = Device::cuda(cuda_device_of(object));
    return {read_only ? TensorBuffer::borrow(static_cast<const void*>(pointer), shape, type, device, std::move(borrow))
                      : TensorBuffer::borrow(pointer, shape, type, device, std::move(borrow)),
            false};
  } catch (...) {
    delete owner;
    throw;
  }
}

enum class Kind { kBool, kInt, kFloat };

Kind kind_of(py::handle leaf, const char* name) {
  if (PyBool_Check(leaf.ptr())) return Kind::kBool;
  if (PyLong_Check(leaf.ptr())) return Kind::kInt;
  if (PyFloat_Check(leaf.ptr())) return Kind::kFloat;
  if (PyIndex_Check(leaf.ptr())) return Kind::kInt;       // NumPy integers
  if (py::hasattr(leaf, "__float__")) return Kind::kFloat;  // NumPy floats
  throw InvalidArgumentError(std::string(name) + ": " + type_name(leaf) + " '" + text_of(leaf) +
                             "' is not a number");
}

Converted from_python_values(py::handle object, const ConvertOptions& options) {
  const Nested nested = flatten_nested(object, options.name);
  const std::vector<std::int64_t>& dims = nested.dims;
  const std::vector<py::handle>& leaves = nested.leaves;
  Kind kind = dims.empty() || !leaves.empty() ? Kind::kBool : Kind::kFloat;  // [] is float64
  for (py::handle leaf : leaves) kind = std::max(kind, kind_of(leaf, options.name));
  const DataType type = kind == Kind::kBool ? DataType::kBool
                        : kind == Kind::kInt ? DataType::kInt64 : DataType::kFloat64;
  TensorBuffer values = TensorBuffer::create_fixed_size(Shape(dims), type);
  if (!leaves.empty()) {
    void* out = values.overwrite_host_bytes();
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      PyObject* leaf = leaves[i].ptr();
      if (kind == Kind::kBool) {
        static_cast<std::uint8_t*>(out)[i] = leaf == Py_True ? 1 : 0;
      } else if (kind == Kind::kInt) {
        py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(leaf));
        if (!index) throw py::error_already_set();
        int overflow = 0;
        const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
        if (overflow != 0) {
          throw InvalidArgumentError(std::string(options.name) + ": " + text_of(leaves[i]) +
                                     " does not fit in int64");
        }
        static_cast<std::int64_t*>(out)[i] = v;
      } else {
        const double v = PyFloat_AsDouble(leaf);
        if (v == -1.0 && PyErr_Occurred()) throw py::error_already_set();
        static_cast<double*>(out)[i] = v;
      }
    }
  }
  if (options.values_as && *options.values_as != type) {
    return {TensorBuffer::create_from(values, *options.values_as), true};
  }
  return {std::move(values), true};
}

Converted convert(py::handle object, const ConvertOptions& options) {
  if (options.access == Access::kWrite && is_python_values(object)) {
    throw InvalidArgumentError(std::string(options.name) + ": an in-place op writes into the "
                               "caller's array; a " + type_name(object) + " is not one (use "
                               "the op without _in_place, or a NumPy array / torch tensor)");
  }
  // A plain CPU torch tensor: its geometry read directly (about 1 us for the three arguments of
  // a call, against 20 us through DLPack capsules); anything unusual goes the DLPack way below.
  if (std::optional<TensorBuffer> borrowed = borrow_torch_cpu(object, options.name)) {
    return {std::move(*borrowed), false};
  }
  if (PyObject_CheckBuffer(object.ptr())) {
    Converted converted = from_buffer_protocol(object, options);
    // A NumPy scalar is a 0-d array of its dtype: converted where Python values are.
    if (options.access == Access::kRead && options.values_as &&
        converted.buffer.data_type() != *options.values_as) {
      return {TensorBuffer::create_from(converted.buffer, *options.values_as), true};
    }
    return converted;
  }
  if (py::hasattr(object, "__dlpack__")) {
    const bool torch = is_torch_tensor(object);
    py::object exported = torch ? without_grad(object, options.name)
                                : py::reinterpret_borrow<py::object>(object);
    // A negative view (x.conj().imag) holds -values; DLPack would export the memory as it is.
    if (torch && exported.attr("is_neg")().cast<bool>()) {
      if (options.access == Access::kWrite) {
        throw InvalidArgumentError(std::string(options.name) + ": an in-place op cannot write a "
                                   "torch tensor with the negative bit set (a view that "
                                   "negates its memory); write its resolve_neg() instead");
      }
      return {import_object(exported.attr("resolve_neg")(), options.stream), true};
    }
    // A strided torch tensor an op only reads: its contiguous copy (DLPack import takes
    // C-contiguous memory only; in place, the import's error names the stride).
    if (options.access == Access::kRead && py::hasattr(exported, "is_contiguous") &&
        !exported.attr("is_contiguous")().cast<bool>()) {
      return {import_object(exported.attr("contiguous")(), options.stream), true};
    }
    return {import_object(exported, options.stream), false};
  }
  if (py::hasattr(object, "__cuda_array_interface__")) {
    return from_cuda_array_interface(object, options);
  }
  if (is_python_values(object)) return from_python_values(object, options);
  throw py::type_error(std::string(options.name) + ": cannot take a " + type_name(object) +
                       " as a tensor (tensorbuf takes tb.TensorBuffer, NumPy arrays and the "
                       "buffer protocol, __dlpack__, __cuda_array_interface__, and Python "
                       "numbers and nested lists)");
}

}  // namespace

bool is_python_values(py::handle object) {
  PyObject* p = object.ptr();
  return PyBool_Check(p) || PyLong_Check(p) || PyFloat_Check(p) || PyList_Check(p) ||
         PyTuple_Check(p);
}

TensorArg to_tensor(py::handle object, const ConvertOptions& options) {
  if (py::isinstance<PyTensorBuffer>(object)) return TensorArg(&object.cast<PyTensorBuffer&>());
  return TensorArg(convert(object, options).buffer);
}

TensorBuffer as_buffer(py::handle object, py::handle device, py::handle stream, py::handle copy) {
  ConvertOptions options;
  options.name = "obj";
  options.stream = parse_stream(stream);
  Converted converted = convert(object, options);
  const bool copy_asked = !copy.is_none() && copy.cast<bool>();
  if (!copy.is_none() && !copy.cast<bool>() && converted.copied) {
    throw InvalidArgumentError("asarray: copy=False, but a " + type_name(object) +
                               " cannot be taken without a copy");
  }
  TensorBuffer buffer = copy_asked && !converted.copied ? converted.buffer.clone()
                                                        : std::move(converted.buffer);
  if (auto target = parse_device(device)) buffer.sync_to(*target);
  return buffer;
}

}  // namespace tensorbuf::python
