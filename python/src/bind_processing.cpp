// The pre- and post-processing ops (docs/processing.md): TFLite Support's normalize, quantize,
// dequantize and cast, and ONNX's quantize_linear / dequantize_linear.
#include <optional>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "arguments.hpp"
#include "bindings.hpp"
#include "result_type.hpp"
#include "to_tensor.hpp"
#include "tensorbuf/processing.hpp"
#include "tensorbuf/quantize_linear.hpp"

namespace tensorbuf::python {

namespace py = pybind11;
using namespace pybind11::literals;

namespace {

ProcessOptions process_options(py::handle device, py::handle stream) {
  ProcessOptions options;
  options.device = parse_device(device);
  options.stream = parse_stream(stream);
  return options;
}

// Runs `op(x)` without the GIL, x locked when it is the caller's tb.TensorBuffer; the result
// is of x's type (result_type.hpp).
template <class Op>
py::object run_unary(py::handle x, py::handle out_type, const ProcessOptions& options, Op op) {
  TensorArg arg = to_tensor(x, {"x", Access::kRead, std::nullopt, options.stream});
  BufferLocks locks({arg.object()});
  std::optional<TensorBuffer> result;
  {
    py::gil_scoped_release no_gil;
    result.emplace(op(arg.get()));
  }
  return wrap_result(std::move(*result), x, out_type);
}

// A float or a sequence of floats: the scalar or the per-channel form (as TFLite Support's two
// NormalizeOp constructors).
bool is_sequence(py::handle value) {
  return py::isinstance<py::sequence>(value) && !py::isinstance<py::str>(value);
}

py::object normalize_py(py::handle x, py::handle mean, py::handle stddev, py::handle device,
                        py::handle stream, py::handle out_type) {
  const ProcessOptions options = process_options(device, stream);
  if (is_sequence(mean) != is_sequence(stddev)) {
    throw py::type_error("normalize: mean and stddev must both be numbers or both be sequences");
  }
  if (!is_sequence(mean)) {
    const float m = mean.cast<float>(), s = stddev.cast<float>();
    return run_unary(x, out_type, options,
                     [&](const TensorBuffer& in) { return normalize(in, m, s, options); });
  }
  const auto means = mean.cast<std::vector<float>>(), stddevs = stddev.cast<std::vector<float>>();
  return run_unary(x, out_type, options,
                   [&](const TensorBuffer& in) { return normalize(in, means, stddevs, options); });
}

template <auto Op>
py::object affine_py(py::handle x, float zero_point, float scale, py::handle device,
                     py::handle stream, py::handle out_type) {
  const ProcessOptions options = process_options(device, stream);
  return run_unary(x, out_type, options,
                   [&](const TensorBuffer& in) { return Op(in, zero_point, scale, options); });
}

py::object cast_py(py::handle x, py::handle dtype, py::handle device, py::handle stream,
                   py::handle out_type) {
  const ProcessOptions options = process_options(device, stream);
  const DataType type = parse_dtype(dtype);
  return run_unary(x, out_type, options,
                   [&](const TensorBuffer& in) { return cast(in, type, options); });
}

template <auto Op>
py::object linear_py(py::handle x, py::handle scale, py::handle zero_point, int axis,
                     py::handle device, py::handle stream, py::handle out_type) {
  QuantizeLinearOptions options;
  options.device = parse_device(device);
  options.axis = axis;
  options.stream = parse_stream(stream);
  TensorArg in = to_tensor(x, {"x", Access::kRead, std::nullopt, options.stream});
  // Python numbers: a float32 scale; a zero point takes x's dtype for dequantize_linear (its
  // type constraint) and uint8 for quantize_linear (ONNX's default output type).
  const bool dequantizing = Op == &dequantize_linear;
  TensorArg s = to_tensor(scale, {"scale", Access::kRead, DataType::kFloat32, options.stream});
  const DataType zero_type = dequantizing ? in.get().data_type() : DataType::kUInt8;
  TensorArg z = to_tensor(zero_point, {"zero_point", Access::kRead,
                                       is_python_values(zero_point) ? std::optional(zero_type)
                                                                    : std::nullopt,
                                       options.stream});
  BufferLocks locks({in.object(), s.object(), z.object()});
  std::optional<TensorBuffer> result;
  {
    py::gil_scoped_release no_gil;
    result.emplace(Op(in.get(), s.get(), z.get(), options));
  }
  return wrap_result(std::move(*result), x, out_type);
}

}  // namespace

void bind_processing(py::module_& m) {
  m.def("normalize", &normalize_py, "x"_a, "mean"_a, "stddev"_a, py::kw_only(),
        "device"_a = py::none(), "stream"_a = py::none(), "out_type"_a = "same",
        "TFLite Support's NormalizeOp: (float32(x) - mean) / stddev in float32; numbers, or "
        "sequences of one per channel (x's last axis). mean 0 with stddev 1 is the identity "
        "(x's own memory, x's dtype)" TENSORBUF_RESULT_DOC("x"));
  m.def("quantize", &affine_py<&quantize>, "x"_a, "zero_point"_a, "scale"_a, py::kw_only(),
        "device"_a = py::none(), "stream"_a = py::none(), "out_type"_a = "same",
        "TFLite Support's QuantizeOp: normalize(x, -zero_point * scale, scale)"
        TENSORBUF_RESULT_DOC("x"));
  m.def("dequantize", &affine_py<&dequantize>, "x"_a, "zero_point"_a, "scale"_a, py::kw_only(),
        "device"_a = py::none(), "stream"_a = py::none(), "out_type"_a = "same",
        "TFLite Support's DequantizeOp: normalize(x, zero_point, 1 / scale)"
        TENSORBUF_RESULT_DOC("x"));
  m.def("cast", &cast_py, "x"_a, "dtype"_a, py::kw_only(), "device"_a = py::none(),
        "stream"_a = py::none(), "out_type"_a = "same",
        "TFLite Support's CastOp for every pair of dtypes (saturating, NaN to 0); x itself when "
        "dtype is x's" TENSORBUF_RESULT_DOC("x"));
  m.def("quantize_linear", &linear_py<&quantize_linear>, "x"_a, "scale"_a, "zero_point"_a,
        py::kw_only(), "axis"_a = 1, "device"_a = py::none(), "stream"_a = py::none(),
        "out_type"_a = "same",
        "ONNX QuantizeLinear (opset 13): saturate(round_half_even(x / scale) + zero_point) in the "
        "zero point's dtype (a Python number: uint8); per tensor or per axis"
        TENSORBUF_RESULT_DOC("x"));
  m.def("dequantize_linear", &linear_py<&dequantize_linear>, "x"_a, "scale"_a, "zero_point"_a,
        py::kw_only(), "axis"_a = 1, "device"_a = py::none(), "stream"_a = py::none(),
        "out_type"_a = "same",
        "ONNX DequantizeLinear (opset 13): (float32(x) - zero_point) * scale in float32"
        TENSORBUF_RESULT_DOC("x"));
}

}  // namespace tensorbuf::python
