// The extension module tensorbuf._tensorbuf (spec/interop.md I3); python/tensorbuf/__init__.py
// re-exports it.
#include <pybind11/pybind11.h>

#include "arguments.hpp"
#include "bindings.hpp"
#include "dlpack_bridge.hpp"
#include "errors.hpp"
#include "py_objects.hpp"
#include "text_signatures.hpp"
#include "to_tensor.hpp"
#include "torch_objects.hpp"
#include "tensorbuf/runtime.hpp"
#include "tensorbuf/stats.hpp"
#include "tensorbuf/version.hpp"

namespace py = pybind11;
using namespace pybind11::literals;
using namespace tensorbuf;
using namespace tensorbuf::python;

namespace {

py::object asarray(py::handle object, py::handle device, py::handle stream, py::handle copy) {
  if (!py::isinstance<PyTensorBuffer>(object)) return wrap_buffer(as_buffer(object, device, stream, copy));
  auto& self = object.cast<PyTensorBuffer&>();
  const bool copy_asked = !copy.is_none() && copy.cast<bool>();
  const std::optional<Device> target = parse_device(device);
  if (!copy_asked && !target) return py::reinterpret_borrow<py::object>(object);  // as NumPy does
  BufferLocks lock({&self});
  if (!copy_asked) {
    self.buffer.sync_to(*target);
    return py::reinterpret_borrow<py::object>(object);
  }
  TensorBuffer clone = self.buffer.clone();
  if (target) clone.sync_to(*target);
  return wrap_buffer(std::move(clone));
}

py::dict stats_dict() {
  const Stats s = stats();
  return py::dict("host_to_device_copies"_a = s.host_to_device_copies,
                  "device_to_host_copies"_a = s.device_to_host_copies,
                  "bytes_host_to_device"_a = s.bytes_host_to_device,
                  "bytes_device_to_host"_a = s.bytes_device_to_host,
                  "device_allocations"_a = s.device_allocations,
                  "pinned_host_allocations"_a = s.pinned_host_allocations,
                  "host_allocations"_a = s.host_allocations, "host_waits"_a = s.host_waits);
}

}  // namespace

PYBIND11_MODULE(_tensorbuf, m) {
  m.doc() = "tensorbuf: typed buffers and scatter / mask-update / substr ops on CPU and CUDA, "
            "on PyTorch, NumPy and Arrow data without copies.";
  m.attr("__version__") = std::string(kVersion);
  bind_errors(m);
  bind_spellings(m);
  bind_tensor_buffer(m);
  bind_string_tensor(m);
  bind_ops(m);
  bind_processing(m);
  bind_torch_fast(m);
  m.def("asarray", &asarray, "obj"_a, py::kw_only(), "device"_a = py::none(),
        "stream"_a = py::none(), "copy"_a = py::none(),
        "A tb.TensorBuffer over obj's memory (no copy: the buffer protocol, __dlpack__, "
        "__cuda_array_interface__); Python values are copied. copy=True: a deep copy; "
        "copy=False: InvalidArgumentError where a copy is needed.");
  m.def("from_dlpack", [](py::handle object, py::handle stream) {
    const Stream ready{parse_stream(stream)};
    if (PyCapsule_CheckExact(object.ptr())) return wrap_buffer(import_capsule(object, {ready}));
    return wrap_buffer(import_object(object, ready));
  }, "obj"_a, py::kw_only(), "stream"_a = py::none(),
     "Imports an object with __dlpack__ (versioned form asked first) or a DLPack capsule.");
  m.def("cuda_available", &cuda_available, "Built with CUDA and a usable device present.");
  m.def("cuda_availability_reason", &cuda_availability_reason);
  m.def("cuda_device_count", &cuda_device_count);
  m.def("cpu_thread_count", &cpu_thread_count);
  m.def("synchronize", [](py::handle device, py::handle stream) {
    const auto target = parse_device(device);
    const Stream s = parse_stream(stream);
    py::gil_scoped_release no_gil;
    synchronize(target.value_or(Device::cuda(0)), s);
  }, "device"_a = py::none(), "stream"_a = py::none(),
     "Waits for the device work enqueued on stream (None: the library's stream of the device; "
     "device None: cuda:0).");
  m.def("stats", &stats_dict, "The process's copy / allocation / host-wait counters.");
  m.def("reset_stats", &reset_stats);
  add_text_signatures(m);  // last: every function is bound
}
