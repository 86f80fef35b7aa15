// gather_nd (docs/gather_nd.md): converts its arguments (borrowing where it can), locks the
// caller's tb.TensorBuffers and runs the C++ op without the GIL, as bind_mask_ops.cpp's reading
// ops do; like in, like out (result_type.hpp).
#include <optional>

#include <pybind11/pybind11.h>

#include "arguments.hpp"
#include "bindings.hpp"
#include "result_type.hpp"
#include "to_tensor.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf::python {

namespace py = pybind11;
using namespace pybind11::literals;

namespace {

py::object gather_nd_py(py::handle params, py::handle indices, int batch_dims,
                        py::handle out_of_bounds, py::handle device, py::handle stream,
                        py::handle out_type) {
  GatherOptions options;
  options.device = parse_device(device);
  options.out_of_bounds = parse_out_of_bounds(out_of_bounds);
  options.batch_dims = batch_dims;
  options.stream = parse_stream(stream);
  TensorArg p = to_tensor(params, {"params", Access::kRead, std::nullopt, options.stream});
  TensorArg i = to_tensor(indices, {"indices", Access::kRead, std::nullopt, options.stream});
  BufferLocks locks({p.object(), i.object()});
  std::optional<TensorBuffer> result;
  {
    py::gil_scoped_release no_gil;
    result.emplace(gather_nd(p.get(), i.get(), options));
  }
  return wrap_result(std::move(*result), params, out_type);
}

}  // namespace

void bind_gather_nd(py::module_& m) {
  m.def("gather_nd", &gather_nd_py, "params"_a, "indices"_a, py::kw_only(), "batch_dims"_a = 0,
        "out_of_bounds"_a = "default", "device"_a = py::none(), "stream"_a = py::none(),
        "out_type"_a = "same",
        "tf.gather_nd / ONNX GatherND: with b = batch_dims and D = indices.shape[-1], "
        "out[i...] = params[i[:b]..., *indices[i...]], shape indices.shape[:-1] + "
        "params.shape[b+D:]; indices int32/int64, negative components out of range (error, or "
        "zeros with out_of_bounds=\"drop\")" TENSORBUF_RESULT_DOC("params"));
}

}  // namespace tensorbuf::python
