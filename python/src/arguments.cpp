#include "arguments.hpp"

#include <cstdint>

#include "tensorbuf/spellings.hpp"
#include "result_type.hpp"
#include "tensorbuf/errors.hpp"

namespace tensorbuf::python {

std::optional<Device> parse_device(py::handle device) {
  if (device.is_none()) return std::nullopt;
  return tensorbuf::parse_device(text_of(device), "device");
}

OutOfBoundsPolicy parse_out_of_bounds(py::handle policy) {
  return parse_spelling<OutOfBoundsPolicy>(text_of(policy), "out_of_bounds");
}

SubstrUnit parse_unit(py::handle unit) {
  return parse_spelling<SubstrUnit>(text_of(unit), "unit");
}

namespace {
template <class Enum>
py::tuple words() {
  py::list out;
  for (const Spelling<Enum>& s : Spellings<Enum>::kWords) {
    out.append(py::str(s.word.data(), s.word.size()));
  }
  return py::tuple(out);
}
}  // namespace

void bind_spellings(py::module_& m) {
  py::dict spellings;
  spellings["out_of_bounds"] = words<OutOfBoundsPolicy>();
  spellings["unit"] = words<SubstrUnit>();
  spellings["reduction"] = words<Reduction>();
  spellings["out_type"] = out_type_words();
  m.attr("_spellings") = spellings;
}

Stream parse_stream(py::handle stream) {
  if (stream.is_none()) return Stream{};
  py::object handle = py::reinterpret_borrow<py::object>(stream);
  if (py::hasattr(stream, "__cuda_stream__")) {
    handle = stream.attr("__cuda_stream__")();
    // The CUDA stream protocol returns (version, handle).
    if (py::isinstance<py::tuple>(handle) && py::len(handle) == 2) handle = handle[py::int_(1)];
  } else if (py::hasattr(stream, "cuda_stream")) {
    handle = stream.attr("cuda_stream");
  }
  if (!PyLong_Check(handle.ptr())) {
    throw InvalidArgumentError("stream must be None, an int cudaStream_t, an object with "
                               "__cuda_stream__ or a torch stream, got " + text_of(stream));
  }
  return Stream{reinterpret_cast<void*>(handle.cast<std::uintptr_t>())};
}

DataType parse_dtype(py::handle dtype) {
  std::string name;
  if (py::isinstance<py::str>(dtype)) {
    name = dtype.cast<std::string>();
  } else {
    name = text_of(dtype);
    if (name.rfind("torch.", 0) == 0) name = name.substr(6);
  }
  if (auto type = find_spelling<DataType>(name)) return *type;
  // NumPy's spellings: np.float32, np.dtype("f4"), "f4", "float", "bool_" ...
  try {
    py::object numpy_dtype = py::module_::import("numpy").attr("dtype")(
        py::isinstance<py::str>(dtype) ? py::str(name) : py::reinterpret_borrow<py::object>(dtype));
    if (auto type = find_spelling<DataType>(numpy_dtype.attr("name").cast<std::string>())) {
      return *type;
    }
    name = numpy_dtype.attr("name").cast<std::string>();
  } catch (const py::error_already_set&) {
  }
  throw InvalidArgumentError("unsupported dtype '" + name + "' (tensorbuf has " +
                             spelling_list<DataType>() + ")");
}

Shape parse_shape(py::handle shape) {
  if (PyLong_Check(shape.ptr())) return Shape{shape.cast<std::int64_t>()};
  if (!py::isinstance<py::sequence>(shape) || py::isinstance<py::str>(shape)) {
    throw InvalidArgumentError("shape must be a sequence of ints, got " + text_of(shape));
  }
  std::vector<std::int64_t> dims;
  for (py::handle dim : shape) {
    if (!PyIndex_Check(dim.ptr())) {
      throw InvalidArgumentError("shape must be a sequence of ints, got " + text_of(shape));
    }
    dims.push_back(py::reinterpret_steal<py::object>(PyNumber_Index(dim.ptr())).cast<std::int64_t>());
  }
  return Shape(std::move(dims));
}

py::tuple shape_tuple(const Shape& shape) {
  py::tuple dims(shape.rank());
  for (int d = 0; d < shape.rank(); ++d) dims[static_cast<std::size_t>(d)] = py::int_(shape[d]);
  return dims;
}

std::string text_of(py::handle value) { return py::str(value).cast<std::string>(); }

std::string type_name(py::handle value) {
  return py::type::handle_of(value).attr("__name__").cast<std::string>();
}

py::object dlpack_stream_argument(Stream stream) {
  if (stream.handle == nullptr) return py::int_(1);
  return py::int_(reinterpret_cast<std::uintptr_t>(stream.handle));
}

}  // namespace tensorbuf::python
