// The table of functions the optional accelerator tensorbuf._torch_fast (python/torch_fast,
// linked to libtorch) hands to _tensorbuf in a capsule: a torch tensor's TensorImpl read in
// C++ and its version counter bumped in C++, instead of torch's Python-level getters and set_.
// Plain C types only: _tensorbuf never includes a torch header nor links libtorch.
#pragma once

#include <cstdint>

#include <Python.h>

namespace tensorbuf::python {

// What the accelerator read from one tensor; pointers valid while the tensor lives unchanged.
struct TorchTensorView {
  void* data = nullptr;                   // the first element (storage + offset)
  const std::int64_t* sizes = nullptr;    // rank entries
  std::int64_t rank = 0;
  int dtype = -1;  // index into TorchObjects::dtypes (bool ... float64), -1: another dtype
  bool contiguous = false;     // C-contiguous
  bool negative = false;       // the negative bit (a view that negates its memory)
  bool conjugate = false;      // the conjugate bit
  bool requires_grad = false;
  bool grad_enabled = false;  // autograd records on this thread (not torch.no_grad())
};

struct TorchFastApi {
  static constexpr unsigned kVersion = 1;
  unsigned version = kVersion;  // of this layout
  // 1: `tensor` is exactly a torch.Tensor or torch.nn.Parameter, dense, strided, on the CPU
  // with storage, read into *view; 0: not (a subclass, another device or layout, no storage):
  // the caller takes its general route. Never raises, the GIL held.
  int (*read)(PyObject* tensor, TorchTensorView* view) = nullptr;
  // After a write into `tensor`'s memory: bumps its version counter, as torch's in-place ops
  // do (nothing for an inference tensor, which has none). 1: done; 0: not exactly a
  // torch.Tensor or Parameter (the caller bumps it its way); -1: a Python error is set.
  int (*bump_version)(PyObject* tensor) = nullptr;
};

// The capsule's name, as PyCapsule_Import wants it.
inline constexpr const char* kTorchFastCapsule = "tensorbuf._torch_fast._api";

}  // namespace tensorbuf::python
