// torch's Python objects tensorbuf needs, looked up once torch has been imported by someone
// else (tensorbuf never imports torch): its Tensor type, dtypes and layout, to read a CPU
// tensor's geometry with a few C-level attribute reads instead of a DLPack capsule (about 20 us
// per call in torch 1.13), and to make torch tensors of results. Nothing here links libtorch.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include <pybind11/pybind11.h>

#include "tensorbuf/tensor_buffer.hpp"
#include "torch_fast_api.hpp"

namespace tensorbuf::python {

// Strong references kept for the process (torch is never unloaded); read with the GIL held.
struct TorchObjects {
  PyObject* module = nullptr;       // torch
  PyTypeObject* tensor = nullptr;   // torch.Tensor
  PyObject* strided = nullptr;      // torch.strided
  PyObject* from_dlpack = nullptr;  // torch.from_dlpack (takes a capsule or a producer)
  PyObject* is_grad_enabled = nullptr;
  std::array<PyObject*, 10> dtypes{};  // torch.bool ... torch.float64, in DataType's order
  // The attributes read per tensor: the interned name (any tensor, subclasses included), and
  // torch._C._TensorBase's descriptor, called directly for an exact torch.Tensor (no attribute
  // lookup; null if torch.Tensor itself overrides the name).
  struct Attribute {
    PyObject* name = nullptr;
    PyObject* descriptor = nullptr;  // a getset_descriptor or a method_descriptor
    bool method = false;             // called without arguments
  };
  Attribute layout, is_cpu, dtype, requires_grad, is_contiguous, is_neg, shape, data_ptr;
  PyObject* set_ = nullptr;             // interned "set_"
  PyObject* set_descriptor = nullptr;  // _TensorBase.set_, unless torch.Tensor overrides it
  // The accelerator tensorbuf._torch_fast, when built for this torch and loaded; else why not.
  const TorchFastApi* fast = nullptr;
  std::string fast_status;
};

// The accelerator's use, for tests and benchmarks (_tensorbuf._torch_fast_state): whether it
// may be used, and how many tensors it read and version counters it bumped.
struct TorchFastUse {
  bool enabled = true;
  std::uint64_t reads = 0;
  std::uint64_t bumps = 0;
};
TorchFastUse& torch_fast_use();

// The accelerator when loaded and enabled, else null.
const TorchFastApi* torch_fast(const TorchObjects& torch);

// _tensorbuf._torch_fast_state() and _torch_fast_enable(bool) (private: tests, benchmarks).
void bind_torch_fast(pybind11::module_& m);

// tensor.<attribute>, or tensor.<attribute>() for a method; throws on error. `exact`: the
// tensor's type is torch.Tensor itself.
pybind11::object read_attribute(PyObject* tensor, const TorchObjects::Attribute& attribute,
                                bool exact);

// torch's objects, or null while torch is not (yet fully) imported.
const TorchObjects* torch_objects();

// The DataType of a torch dtype object, if tensorbuf has it.
std::optional<DataType> torch_data_type(const TorchObjects& torch, PyObject* dtype);

// A CPU torch tensor (torch.Tensor or a subclass) as a TensorBuffer borrowing its memory: a
// strided, C-contiguous, element-aligned tensor of a tensorbuf dtype without the negative bit
// (as DLPack would import it, bool included). nullopt for anything else (CUDA and other
// devices, sparse, strided, complex, neg views ...), which takes the general DLPack route.
// A tensor that requires grad raises InvalidArgumentError while autograd records (name names
// the argument); under torch.no_grad() it is taken (the memory detach() would give).
std::optional<TensorBuffer> borrow_torch_cpu(pybind11::handle object, const char* name);

}  // namespace tensorbuf::python
