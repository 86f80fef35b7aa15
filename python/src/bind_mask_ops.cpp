// The reading mask ops: boolean_mask, boolean_mask_into and compress (docs/boolean_mask.md).
// Each converts its arguments (borrowing where it can), locks the caller's tb.TensorBuffers and
// runs the C++ op without the GIL, as bind_ops.cpp's writing ops do.
#include <optional>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // std::optional<int> axis

#include "arguments.hpp"
#include "bindings.hpp"
#include "result_type.hpp"
#include "to_tensor.hpp"
#include "torch_autograd.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf::python {

namespace py = pybind11;
using namespace pybind11::literals;

namespace {

TensorArg read_arg(py::handle object, const char* name, Stream stream) {
  return to_tensor(object, {name, Access::kRead, std::nullopt, stream});
}

BooleanMaskOptions mask_options(int axis, py::handle device, py::handle stream) {
  BooleanMaskOptions options;
  options.device = parse_device(device);
  options.axis = axis;
  options.stream = parse_stream(stream);
  return options;
}

py::object boolean_mask_py(py::handle tensor, py::handle mask, int axis, py::handle device,
                           py::handle stream, py::handle out_type) {
  const BooleanMaskOptions options = mask_options(axis, device, stream);
  TensorArg t = read_arg(tensor, "tensor", options.stream);
  TensorArg m = read_arg(mask, "mask", options.stream);
  BufferLocks locks({t.object(), m.object()});
  std::optional<TensorBuffer> result;
  {
    py::gil_scoped_release no_gil;
    result.emplace(boolean_mask(t.get(), m.get(), options));
  }
  return wrap_result(std::move(*result), tensor, out_type);
}

void boolean_mask_into_py(py::handle tensor, py::handle mask, py::handle out, py::handle count,
                          int axis, py::handle device, py::handle stream) {
  const BooleanMaskOptions options = mask_options(axis, device, stream);
  TensorArg t = read_arg(tensor, "tensor", options.stream);
  TensorArg m = read_arg(mask, "mask", options.stream);
  TensorArg o = to_tensor(out, {"out", Access::kWrite, std::nullopt, options.stream});
  TensorArg n = to_tensor(count, {"count", Access::kWrite, std::nullopt, options.stream});
  BufferLocks locks({t.object(), m.object(), o.object(), n.object()});
  {
    py::gil_scoped_release no_gil;
    boolean_mask_into(t.get(), m.get(), o.get(), n.get(), options);
  }
  if (is_torch_tensor(out)) note_torch_write(out);
  if (is_torch_tensor(count)) note_torch_write(count);
}

py::object compress_py(py::handle input, py::handle condition, std::optional<int> axis,
                       py::handle device, py::handle stream, py::handle out_type) {
  CompressOptions options;
  options.device = parse_device(device);
  options.axis = axis;
  options.stream = parse_stream(stream);
  TensorArg x = read_arg(input, "input", options.stream);
  TensorArg c = read_arg(condition, "condition", options.stream);
  BufferLocks locks({x.object(), c.object()});
  std::optional<TensorBuffer> result;
  {
    py::gil_scoped_release no_gil;
    result.emplace(compress(x.get(), c.get(), options));
  }
  return wrap_result(std::move(*result), input, out_type);
}

}  // namespace

void bind_mask_ops(py::module_& m) {
  m.def("boolean_mask", &boolean_mask_py, "tensor"_a, "mask"_a, py::kw_only(), "axis"_a = 0,
        "device"_a = py::none(), "stream"_a = py::none(), "out_type"_a = "same",
        "NumPy's tensor[(slice(None),) * axis + (mask,)], tf.boolean_mask: the slices where the "
        "bool mask is true, in the mask's row-major order" TENSORBUF_RESULT_DOC("tensor"));
  m.def("boolean_mask_into", &boolean_mask_into_py, "tensor"_a, "mask"_a, "out"_a, "count"_a,
        py::kw_only(), "axis"_a = 0, "device"_a = py::none(), "stream"_a = py::none(),
        "boolean_mask written into the caller's `out` (capacity C along axis) and the true count "
        "n into `count` (int64, one element), with no host wait: the first min(n, C) slices are "
        "written, the rest of out is left as it was; compare count with C.");
  m.def("compress", &compress_py, "input"_a, "condition"_a, py::kw_only(), "axis"_a = py::none(),
        "device"_a = py::none(), "stream"_a = py::none(), "out_type"_a = "same",
        "ONNX Compress / numpy.compress: the slices of input along axis whose entry of the 1-D "
        "bool condition is true (axis None: the flattened input)" TENSORBUF_RESULT_DOC("input"));
}

}  // namespace tensorbuf::python
