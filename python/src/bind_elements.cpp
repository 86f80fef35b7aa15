// gather, gather_elements and scatter_elements (docs/elements.md): each converts its arguments
// (borrowing where it can), locks the caller's tb.TensorBuffers and runs the C++ op without the
// GIL, as bind_gather_nd.cpp does; like in, like out (result_type.hpp).
#include <optional>

#include <pybind11/pybind11.h>

#include "arguments.hpp"
#include "bindings.hpp"
#include "result_type.hpp"
#include "tensorbuf/ops.hpp"
#include "tensorbuf/spellings.hpp"
#include "to_tensor.hpp"
#include "torch_autograd.hpp"

namespace tensorbuf::python {

namespace py = pybind11;
using namespace pybind11::literals;

namespace {

using GatherFn = TensorBuffer (*)(const TensorBuffer&, const TensorBuffer&, const GatherOptions&);

py::object run_gather(GatherFn op, py::handle params, py::handle indices,
                      const GatherOptions& options, py::handle out_type) {
  TensorArg p = to_tensor(params, {"params", Access::kRead, std::nullopt, options.stream});
  TensorArg i = to_tensor(indices, {"indices", Access::kRead, std::nullopt, options.stream});
  BufferLocks locks({p.object(), i.object()});
  std::optional<TensorBuffer> result;
  {
    py::gil_scoped_release no_gil;
    result.emplace(op(p.get(), i.get(), options));
  }
  return wrap_result(std::move(*result), params, out_type);
}

GatherOptions gather_options(int axis, int batch_dims, py::handle out_of_bounds, py::handle device,
                             py::handle stream) {
  GatherOptions options;
  options.device = parse_device(device);
  options.out_of_bounds = parse_out_of_bounds(out_of_bounds);
  options.axis = axis;
  options.batch_dims = batch_dims;
  options.stream = parse_stream(stream);
  return options;
}

py::object gather_py(py::handle params, py::handle indices, int axis, int batch_dims,
                     py::handle out_of_bounds, py::handle device, py::handle stream,
                     py::handle out_type) {
  return run_gather(&gather, params, indices,
                    gather_options(axis, batch_dims, out_of_bounds, device, stream), out_type);
}

py::object gather_elements_py(py::handle params, py::handle indices, int axis,
                              py::handle out_of_bounds, py::handle device, py::handle stream,
                              py::handle out_type) {
  return run_gather(&gather_elements, params, indices,
                    gather_options(axis, 0, out_of_bounds, device, stream), out_type);
}

struct ScatterElementsArgs {
  ScatterElementsOptions options;
  std::optional<TensorArg> tensor, indices, updates;
};

// Converts the three tensors; updates given as Python values take the tensor's dtype.
ScatterElementsArgs scatter_elements_args(py::handle tensor, py::handle indices, py::handle updates,
                                          int axis, py::handle reduction, py::handle out_of_bounds,
                                          bool deterministic, py::handle device, py::handle stream,
                                          Access tensor_access) {
  ScatterElementsArgs args;
  args.options.device = parse_device(device);
  args.options.out_of_bounds = parse_out_of_bounds(out_of_bounds);
  args.options.deterministic = deterministic;
  args.options.axis = axis;
  args.options.reduction = parse_spelling<Reduction>(text_of(reduction), "reduction");
  args.options.stream = parse_stream(stream);
  const Stream stream_of_call = args.options.stream;
  args.tensor.emplace(to_tensor(tensor, {"tensor", tensor_access, std::nullopt, stream_of_call}));
  args.indices.emplace(
      to_tensor(indices, {"indices", Access::kRead, std::nullopt, stream_of_call}));
  args.updates.emplace(to_tensor(
      updates, {"updates", Access::kRead, args.tensor->get().data_type(), stream_of_call}));
  return args;
}

py::object scatter_elements_py(py::handle tensor, py::handle indices, py::handle updates, int axis,
                               py::handle reduction, py::handle out_of_bounds, bool deterministic,
                               py::handle device, py::handle stream, py::handle out_type) {
  ScatterElementsArgs a =
      scatter_elements_args(tensor, indices, updates, axis, reduction, out_of_bounds, deterministic,
                            device, stream, Access::kRead);
  BufferLocks locks({a.tensor->object(), a.indices->object(), a.updates->object()});
  std::optional<TensorBuffer> result;
  {
    py::gil_scoped_release no_gil;
    result.emplace(
        scatter_elements(a.tensor->get(), a.indices->get(), a.updates->get(), a.options));
  }
  return wrap_result(std::move(*result), tensor, out_type);
}

void scatter_elements_in_place_py(py::handle tensor, py::handle indices, py::handle updates,
                                  int axis, py::handle reduction, py::handle out_of_bounds,
                                  bool deterministic, py::handle device, py::handle stream) {
  ScatterElementsArgs a =
      scatter_elements_args(tensor, indices, updates, axis, reduction, out_of_bounds, deterministic,
                            device, stream, Access::kWrite);
  BufferLocks locks({a.tensor->object(), a.indices->object(), a.updates->object()});
  {
    py::gil_scoped_release no_gil;
    scatter_elements_in_place(a.tensor->get(), a.indices->get(), a.updates->get(), a.options);
  }
  if (is_torch_tensor(tensor)) note_torch_write(tensor);
}

}  // namespace

void bind_elements(py::module_& m) {
  m.def("gather", &gather_py, "params"_a, "indices"_a, py::kw_only(), "axis"_a = 0,
        "batch_dims"_a = 0, "out_of_bounds"_a = "default", "device"_a = py::none(),
        "stream"_a = py::none(), "out_type"_a = "same",
        "ONNX Gather / np.take(params, indices, axis) / tf.gather: shape params.shape[:axis] + "
        "indices.shape[batch_dims:] + params.shape[axis+1:] (batch_dims: leading dims shared by "
        "params and indices, tf.gather's); indices int32/int64, -s <= i < 0 means i + s, "
        "anything else outside [0, s) is out of range (error, or zeros with "
        "out_of_bounds=\"drop\")" TENSORBUF_RESULT_DOC("params"));
  m.def("gather_elements", &gather_elements_py, "params"_a, "indices"_a, py::kw_only(),
        "axis"_a = 0, "out_of_bounds"_a = "default", "device"_a = py::none(),
        "stream"_a = py::none(), "out_type"_a = "same",
        "ONNX GatherElements / torch.gather / np.take_along_axis: out[p] = params[p with "
        "p[axis] = indices[p]], shape indices.shape (params' rank, indices.shape[d] <= "
        "params.shape[d] off the axis); negative indices and out_of_bounds as "
        "gather's" TENSORBUF_RESULT_DOC("params"));
  m.def("scatter_elements", &scatter_elements_py, "tensor"_a, "indices"_a, "updates"_a,
        py::kw_only(), "axis"_a = 0, "reduction"_a = "none", "out_of_bounds"_a = "default",
        "deterministic"_a = false, "device"_a = py::none(), "stream"_a = py::none(),
        "out_type"_a = "same",
        "ONNX ScatterElements / torch scatter_reduce_(include_self=True): out = tensor; for each "
        "position p of indices in row-major order, out[p with p[axis] = indices[p]] = "
        "combine(that, updates[p]), reduction \"none\" (assign; duplicates: the last wins on "
        "the CPU) | \"add\" | \"mul\" | \"min\" | \"max\"; indices int32/int64 and updates "
        "(tensor's dtype) of one shape, tensor's rank; negative indices and out_of_bounds as "
        "gather's (drop: skipped)" TENSORBUF_RESULT_DOC("tensor"));
  m.def("scatter_elements_in_place", &scatter_elements_in_place_py, "tensor"_a, "indices"_a,
        "updates"_a, py::kw_only(), "axis"_a = 0, "reduction"_a = "none",
        "out_of_bounds"_a = "default", "deterministic"_a = false, "device"_a = py::none(),
        "stream"_a = py::none(),
        "Same, writing into `tensor` itself (a torch tensor, writable NumPy array or "
        "tb.TensorBuffer); on error nothing is written.");
}

}  // namespace tensorbuf::python
