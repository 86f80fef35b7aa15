// The Processor (docs/processing.md): its steps and its runs. The processing ops themselves are
// rows of python/src/ops/ (op_binder.hpp).
#include <optional>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "arguments.hpp"
#include "bindings.hpp"
#include "op_binder.hpp"
#include "result_type.hpp"
#include "to_tensor.hpp"
#include "tensorbuf/processing.hpp"

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

// Numbers or sequences, as normalize's (op_binder.hpp).
ProcessStep normalize_op_py(py::handle mean, py::handle stddev) {
  const auto is_sequence = &binder::in::Numbers::is_sequence;
  if (is_sequence(mean) != is_sequence(stddev)) {
    throw py::type_error("normalize_op: mean and stddev must both be numbers or both be sequences");
  }
  if (!is_sequence(mean)) return normalize_op(mean.cast<float>(), stddev.cast<float>());
  return normalize_op(mean.cast<std::vector<float>>(), stddev.cast<std::vector<float>>());
}

py::object processor_run_py(const Processor& self, py::handle x, py::handle device,
                            py::handle stream, py::handle out_type) {
  const ProcessOptions options = process_options(device, stream);
  return run_unary(x, out_type, options,
                   [&](const TensorBuffer& in) { return self.run(in, options); });
}

void processor_run_into_py(const Processor& self, py::handle x, py::handle out,
                           py::handle device, py::handle stream) {
  const ProcessOptions options = process_options(device, stream);
  TensorArg in = to_tensor(x, {"x", Access::kRead, std::nullopt, options.stream});
  TensorArg o = to_tensor(out, {"out", Access::kWrite, std::nullopt, options.stream});
  BufferLocks locks({in.object(), o.object()});
  py::gil_scoped_release no_gil;
  self.run_into(in.get(), o.get(), options);
}

}  // namespace

// The chain's steps (docs/processing.md, "Processor"): made by the *_op functions, kept by a
// Processor; read-only.
void bind_processing(py::module_& m) {
  py::class_<ProcessStep>(m, "ProcessStep",
                          "One step of a Processor, made by normalize_op, quantize_op, "
                          "dequantize_op or cast_op (validated as the single op validates it).")
      .def_property_readonly(
          "name", [](const ProcessStep& s) { return std::string(s.name()); },
          "'normalize', 'quantize', 'dequantize' or 'cast': the function that made the step.")
      .def_property_readonly(
          "means", [](const ProcessStep& s) { return s.means(); },
          "A normalization's means as applied (empty for a cast).")
      .def_property_readonly(
          "stddevs", [](const ProcessStep& s) { return s.stddevs(); },
          "A normalization's stddevs as applied (empty for a cast).")
      .def_property_readonly(
          "dtype", [](const ProcessStep& s) { return std::string(to_string(s.cast_type())); },
          "The step's output dtype (float32 for a normalization).")
      .def_property_readonly("is_identity", &ProcessStep::is_identity,
                             "Every mean 0 and every stddev 1: the input itself.")
      .def("__repr__", [](const ProcessStep& s) {
        return "<tensorbuf.ProcessStep " + std::string(s.name()) + " -> " +
               std::string(to_string(s.cast_type())) + ">";
      });
  m.def("normalize_op", &normalize_op_py, "mean"_a, "stddev"_a,
        "normalize(x, mean, stddev) as a Processor step: numbers, or sequences of one per "
        "channel.");
  m.def("quantize_op", &quantize_op, "zero_point"_a, "scale"_a,
        "quantize(x, zero_point, scale) as a Processor step.");
  m.def("dequantize_op", &dequantize_op, "zero_point"_a, "scale"_a,
        "dequantize(x, zero_point, scale) as a Processor step.");
  m.def("cast_op", [](py::handle dtype) { return cast_op(parse_dtype(dtype)); }, "dtype"_a,
        "cast(x, dtype) as a Processor step.");
  py::class_<Processor>(m, "Processor",
                        "TFLite Support's TensorProcessor: an ordered chain of steps, built once, "
                        "run in one pass over memory, bit-equal to the single ops one by one.")
      .def(py::init<std::vector<ProcessStep>>(), "steps"_a,
           "Keeps the steps in order; ValueError for two per-channel steps of different "
           "channel counts.")
      .def_property_readonly("steps", &Processor::steps, "The steps, in order.")
      .def(
          "output_type",
          [](const Processor& self, py::handle dtype) {
            return std::string(to_string(self.output_type(parse_dtype(dtype))));
          },
          "dtype"_a, "The dtype run gives for an input of dtype `dtype`.")
      .def("run", &processor_run_py, "x"_a, py::kw_only(), "device"_a = py::none(),
           "stream"_a = py::none(), "out_type"_a = "same",
           "The chain applied to x: a new buffer of x's shape, or x itself when every step is "
           "an identity for it" TENSORBUF_RESULT_DOC("x"))
      .def("run_into", &processor_run_into_py, "x"_a, "out"_a, py::kw_only(),
           "device"_a = py::none(), "stream"_a = py::none(),
           "The chain applied to x, written into out (x's shape, the chain's output dtype; a "
           "writable array, torch tensor or TensorBuffer); out may be x.");
}

}  // namespace tensorbuf::python
