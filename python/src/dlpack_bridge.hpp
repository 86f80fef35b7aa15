// DLPack capsules both ways (spec/interop.md I2 and I3).
#pragma once

#include <utility>

#include <pybind11/pybind11.h>

#include "tensorbuf/dlpack.hpp"

namespace tensorbuf::python {

namespace py = pybind11;

// tb.TensorBuffer.__dlpack__: the legacy "dltensor" capsule without max_version (NumPy 1.24,
// torch 1.13), a "dltensor_versioned" one with max_version >= (1, 0). `stream` is DLPack's
// integer (None or 1: legacy default, 2: per-thread default, -1: no ordering, else a
// cudaStream_t). BufferError for what the form cannot express (read-only or bool, legacy) and
// for another dl_device with copy=False.
py::capsule export_capsule(const TensorBuffer& buffer, py::handle stream, py::handle max_version,
                           py::handle dl_device, py::handle copy);
// tb.TensorBuffer.__dlpack_device__: (kDLCPU, 0) or (kDLCUDA, i) of the freshest copy.
std::pair<int, int> dlpack_device(const TensorBuffer& buffer);
// A versioned export for NumPy's __array__ (read-only flag of the buffer), as a capsule NumPy
// arrays can hold as their base.
py::capsule export_for_numpy(const TensorBuffer& buffer, DLManagedTensorVersioned** tensor);

// Imports a "dltensor" / "dltensor_versioned" capsule (renamed "used_..." so it is consumed
// once). The deleter runs with the GIL held, on whatever thread drops the last reference.
TensorBuffer import_capsule(py::handle capsule, const DLPackImportOptions& options);
// Asks `object` for a capsule (__dlpack__ with max_version=(1, 0), falling back to the legacy
// call) made ready for `stream`, and imports it. torch bool tensors come as their uint8 view.
TensorBuffer import_object(py::handle object, Stream stream);

}  // namespace tensorbuf::python
