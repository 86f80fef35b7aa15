// tb.TensorBuffer: the C++ TensorBuffer, with the seed's methods (spec/tensor_buffer.md),
// NumPy and DLPack export, and the borrowed-memory calls of I1.
#include <climits>
#include <cstring>
#include <cstdint>
#include <string>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "arguments.hpp"
#include "bindings.hpp"
#include "tensorbuf/spellings.hpp"
#include "dlpack_bridge.hpp"
#include "py_objects.hpp"
#include "to_tensor.hpp"
#include "tensorbuf/errors.hpp"

namespace tensorbuf::python {

using namespace pybind11::literals;

namespace {

std::unique_ptr<PyTensorBuffer> wrap(TensorBuffer buffer) {
  return std::make_unique<PyTensorBuffer>(std::move(buffer));
}

py::dtype numpy_dtype(DataType type) {
  if (type == DataType::kBFloat16) {
    throw py::type_error("bfloat16 has no NumPy dtype: use get_float_array(), or "
                         "torch.from_dlpack(buffer)");
  }
  return py::dtype(std::string(to_string(type)));
}

py::array to_numpy(PyTensorBuffer& self, bool copy) {
  return with_lock(self, [&](TensorBuffer& buffer) { return numpy_view(buffer, copy); });
}

// The values of load_array as the seed's float[] or int[]: NumPy float kinds as float32, bool
// and integer kinds as int32 (InvalidArgumentError for a value outside int32, never a wrap).
void load_values(TensorBuffer& buffer, py::handle values, py::handle shape) {
  py::module_ numpy = py::module_::import("numpy");
  py::array array = numpy.attr("asarray")(values);
  const char kind = array.dtype().kind();
  std::optional<Shape> target;
  if (!shape.is_none()) target = parse_shape(shape);
  if (kind == 'f') {
    auto floats = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(array);
    std::span<const float> span(floats.data(), static_cast<std::size_t>(floats.size()));
    py::gil_scoped_release no_gil;
    target ? buffer.load_array(span, *target) : buffer.load_array(span);
    return;
  }
  if (kind != 'i' && kind != 'u' && kind != 'b') {
    throw InvalidArgumentError("load_array: values must be numbers (float or int), got NumPy "
                               "dtype " + py::str(array.dtype()).cast<std::string>());
  }
  if (array.size() > 0 && kind != 'b') {
    const auto low = array.attr("min")().cast<long double>();
    const auto high = array.attr("max")().cast<long double>();
    if (low < INT32_MIN || high > INT32_MAX) {
      throw InvalidArgumentError("load_array: int values must fit in int32 (the seed's int[]); "
                                 "got values in [" + py::str(array.attr("min")()).cast<std::string>() +
                                 ", " + py::str(array.attr("max")()).cast<std::string>() + "]");
    }
  }
  auto ints = py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>::ensure(array);
  std::span<const std::int32_t> span(ints.data(), static_cast<std::size_t>(ints.size()));
  py::gil_scoped_release no_gil;
  target ? buffer.load_array(span, *target) : buffer.load_array(span);
}

Device device_argument(py::handle device) {
  if (auto parsed = parse_device(device)) return *parsed;
  throw InvalidArgumentError(std::string("device must be ") + std::string(kDeviceChoices) +
                             ", not None");
}

std::string repr(PyTensorBuffer& self) {
  return with_lock(self, [](TensorBuffer& b) {
    return "tensorbuf.TensorBuffer(shape=" + b.shape().to_string() + ", dtype=" +
           std::string(to_string(b.data_type())) + ", device=" + b.residence().to_string() +
           (b.is_borrowed() ? ", borrowed" : "") + (b.is_copy_on_write() ? ", copy_on_write" : "") +
           (views_read_only(b) ? ", read_only" : "") + ")";
  });
}

}  // namespace

// Whether views of the buffer's memory (NumPy, DLPack) are read-only: a read-only borrow, or
// bytes referenced by load_buffer until the first write copies them (never written in place).
bool views_read_only(const TensorBuffer& buffer) {
  return buffer.is_read_only() || buffer.is_copy_on_write();
}

py::array numpy_view(TensorBuffer& buffer, bool copy) {
  const py::dtype dtype = numpy_dtype(buffer.data_type());
  const auto dims = buffer.shape().dims();
  std::vector<py::ssize_t> shape(dims.begin(), dims.end());
  buffer.sync_to(Device::cpu());
  if (copy || buffer.flat_size() == 0 || buffer.residence().is_cuda()) {
    const bool read_only = !copy && views_read_only(buffer);
    py::array out(dtype, shape);
    if (buffer.flat_size() != 0) std::memcpy(out.mutable_data(), buffer.host_bytes(), buffer.size_bytes());
    if (read_only) out.attr("flags").attr("writeable") = false;
    return out;
  }
  DLManagedTensorVersioned* tensor = nullptr;
  py::capsule base = export_for_numpy(buffer, &tensor);
  void* data = static_cast<std::byte*>(tensor->dl_tensor.data) + tensor->dl_tensor.byte_offset;
  py::array view(dtype, shape, {}, data, base);
  // The export's own flag: the same answer __dlpack__ gives.
  if ((tensor->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0) {
    view.attr("flags").attr("writeable") = false;
  }
  return view;
}

py::object wrap_buffer(TensorBuffer buffer) { return py::cast(wrap(std::move(buffer))); }

void bind_tensor_buffer(py::module_& m) {
  py::class_<PyTensorBuffer>(m, "TensorBuffer",
      "A typed, shaped buffer with a host and a device copy, synced lazily (TensorFlow Lite "
      "Support's TensorBuffer). Made by tensorbuf.asarray, the create_* methods and the ops.")
      .def_static("create_fixed_size", [](py::handle shape, py::handle dtype) {
        return wrap(TensorBuffer::create_fixed_size(parse_shape(shape), parse_dtype(dtype)));
      }, "shape"_a, "dtype"_a, "A zero-filled buffer whose shape never changes; () is a scalar.")
      .def_static("create_dynamic", [](py::handle dtype) {
        return wrap(TensorBuffer::create_dynamic(parse_dtype(dtype)));
      }, "dtype"_a, "An empty buffer (shape (0,)) whose loads may change its shape.")
      .def_static("create_from", [](py::handle source, py::handle dtype) {
        TensorArg arg = to_tensor(source, ConvertOptions{"source"});
        BufferLocks lock({arg.object()});
        return wrap(TensorBuffer::create_from(arg.get(), parse_dtype(dtype)));
      }, "source"_a, "dtype"_a, "A deep copy converted to dtype (saturating; NaN -> 0 for ints).")
      .def("clone", [](PyTensorBuffer& self) {
        return with_lock(self, [](TensorBuffer& b) { return wrap(b.clone()); });
      })
      .def_property_readonly("shape", [](PyTensorBuffer& self) {
        return with_lock(self, [](TensorBuffer& b) { return shape_tuple(b.shape()); });
      })
      .def_property_readonly("ndim", [](PyTensorBuffer& self) {
        return with_lock(self, [](TensorBuffer& b) { return b.shape().rank(); });
      })
      .def_property_readonly("dtype", [](PyTensorBuffer& self) {
        return std::string(to_string(self.buffer.data_type()));  // fixed for the buffer's life
      }, "The NumPy name of the element type ('bfloat16' for bfloat16).")
      .def_property_readonly("device", [](PyTensorBuffer& self) {
        return with_lock(self, [](TensorBuffer& b) { return b.residence().to_string(); });
      }, "Where the freshest copy lives: 'cpu' or 'cuda:N'. Ops run there by default.")
      .def_property_readonly("flat_size", [](PyTensorBuffer& self) {
        return with_lock(self, [](TensorBuffer& b) { return b.flat_size(); });
      })
      .def_property_readonly("type_size", [](PyTensorBuffer& self) { return self.buffer.type_size(); })
      .def_property_readonly("nbytes", [](PyTensorBuffer& self) {
        return with_lock(self, [](TensorBuffer& b) { return b.size_bytes(); });
      })
      .def_property_readonly("is_dynamic", [](PyTensorBuffer& self) { return self.buffer.is_dynamic(); })
      .def_property_readonly("read_only", [](PyTensorBuffer& self) {
        return with_lock(self, [](TensorBuffer& b) { return views_read_only(b); });
      }, "Whether its memory is not to be written through views (np.asarray, __dlpack__): a "
         "read-only borrow (in-place ops raise), or bytes referenced by load_buffer until the "
         "first write through tensorbuf copies them.")
      .def_property_readonly("copy_on_write", [](PyTensorBuffer& self) {
        return with_lock(self, [](TensorBuffer& b) { return b.is_copy_on_write(); });
      }, "True while its contents are the bytes load_buffer referenced: read_only, yet ops may "
         "write the buffer (the first write copies them).")
      .def_property_readonly("is_borrowed", [](PyTensorBuffer& self) {
        return with_lock(self, [](TensorBuffer& b) { return b.is_borrowed(); });
      })
      .def("load_array", [](PyTensorBuffer& self, py::handle values, py::handle shape) {
        with_lock(self, [&](TensorBuffer& b) { load_values(b, values, shape); });
      }, "values"_a, "shape"_a = py::none(),
         "Loads numbers (float kinds as float32, ints as int32), converted and clamped to the "
         "buffer's dtype; shape=None keeps the current shape. On error nothing changes.")
      .def("load_buffer", [](PyTensorBuffer& self, py::buffer bytes, py::handle shape) {
        py::buffer_info info = bytes.request();
        if (PyBuffer_IsContiguous(info.view(), 'C') == 0) {
          throw InvalidArgumentError("load_buffer: the bytes must be C-contiguous");
        }
        std::span<const std::byte> span(static_cast<const std::byte*>(info.ptr),
                                        static_cast<std::size_t>(info.size * info.itemsize));
        with_lock(self, [&](TensorBuffer& b) {
          shape.is_none() ? b.load_buffer(span) : b.load_buffer(span, parse_shape(shape));
        });
      }, "bytes"_a, "shape"_a = py::none(), py::keep_alive<1, 2>(),
         "References the bytes (native byte order) without a copy; the first write through the "
         "buffer copies them. The buffer keeps the object alive.")
      .def("get_buffer", [](PyTensorBuffer& self) {
        return with_lock(self, [](TensorBuffer& b) {
          return py::bytes(static_cast<const char*>(b.host_bytes()), b.size_bytes());
        });
      }, "A copy of the bytes (native byte order).")
      .def("get_float_array", [](PyTensorBuffer& self) {
        std::vector<float> values = with_lock(self, [](TensorBuffer& b) { return b.get_float_array(); });
        return py::array_t<float>(static_cast<py::ssize_t>(values.size()), values.data());
      }, "All elements as float32 (NumPy array, flat).")
      .def("get_int_array", [](PyTensorBuffer& self) {
        std::vector<std::int32_t> values = with_lock(self, [](TensorBuffer& b) { return b.get_int_array(); });
        return py::array_t<std::int32_t>(static_cast<py::ssize_t>(values.size()), values.data());
      }, "All elements as int32, saturating, NaN -> 0 (NumPy array, flat).")
      .def("get_float_value", [](PyTensorBuffer& self, std::int64_t index) {
        return with_lock(self, [&](TensorBuffer& b) { return b.get_float_value(index); });
      }, "index"_a)
      .def("get_int_value", [](PyTensorBuffer& self, std::int64_t index) {
        return with_lock(self, [&](TensorBuffer& b) { return b.get_int_value(index); });
      }, "index"_a)
      .def("numpy", [](PyTensorBuffer& self) { return to_numpy(self, false); },
           "A NumPy array over the host memory (no copy; a copy for device-homed memory).")
      .def("__array__", [](PyTensorBuffer& self, py::handle dtype, py::handle copy) {
        py::array array = to_numpy(self, !copy.is_none() && copy.cast<bool>());
        if (dtype.is_none()) return py::object(array);
        return array.attr("astype")(dtype, "copy"_a = false);
      }, "dtype"_a = py::none(), "copy"_a = py::none())
      .def("__dlpack__", [](PyTensorBuffer& self, py::handle stream, py::handle max_version,
                            py::handle dl_device, py::handle copy) {
        return with_lock(self, [&](TensorBuffer& b) {
          return export_capsule(b, stream, max_version, dl_device, copy);
        });
      }, py::kw_only(), "stream"_a = py::none(), "max_version"_a = py::none(),
         "dl_device"_a = py::none(), "copy"_a = py::none())
      .def("__dlpack_device__", [](PyTensorBuffer& self) {
        return with_lock(self, [](TensorBuffer& b) { return dlpack_device(b); });
      })
      .def("sync_to", [](PyTensorBuffer& self, py::handle device) {
        with_lock(self, [&](TensorBuffer& b) { b.sync_to(device_argument(device)); });
      }, "device"_a)
      .def("is_valid_on", [](PyTensorBuffer& self, py::handle device) {
        return with_lock(self, [&](TensorBuffer& b) { return b.is_valid_on(device_argument(device)); });
      }, "device"_a)
      .def("evict", [](PyTensorBuffer& self, py::handle device) {
        with_lock(self, [&](TensorBuffer& b) { b.evict(device_argument(device)); });
      }, "device"_a)
      .def("bytes_on", [](PyTensorBuffer& self, py::handle device) {
        return with_lock(self, [&](TensorBuffer& b) { return b.bytes_on(device_argument(device)); });
      }, "device"_a)
      .def("wait_for", [](PyTensorBuffer& self, py::handle stream) {
        with_lock(self, [&](TensorBuffer& b) { b.wait_for(parse_stream(stream)); });
      }, "stream"_a)
      .def("note_external_write", [](PyTensorBuffer& self) {
        with_lock(self, [](TensorBuffer& b) { b.note_external_write(); });
      })
      .def("__repr__", &repr);
}

}  // namespace tensorbuf::python
