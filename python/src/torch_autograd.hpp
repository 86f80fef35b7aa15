// torch tensors and autograd. tensorbuf writes a torch tensor's memory
// through DLPack, which autograd cannot see: the write must bump the tensor's version counter,
// as torch's own in-place ops do, so that a backward that saved the tensor raises instead of
// computing a wrong gradient. Nothing here links libtorch.
#pragma once

#include <pybind11/pybind11.h>

namespace tensorbuf::python {

// Whether `object` is a torch.Tensor (false, and cheap, while torch is not imported).
bool is_torch_tensor(pybind11::handle object);

// The torch tensor `object` as tensorbuf may take it: itself, or, when it requires grad and
// autograd is off (torch.no_grad(), as optimizers update parameters), its detach() (the same
// memory and version counter; torch's __dlpack__ refuses a tensor that requires grad).
// InvalidArgumentError naming `name` when it requires grad while autograd records: autograd
// cannot record tensorbuf's ops, so its gradients would be wrong.
pybind11::object without_grad(pybind11::handle object, const char* name);

// Throws that InvalidArgumentError.
[[noreturn]] void throw_requires_grad(const char* name);

// After tensorbuf wrote the torch tensor `tensor` in place: bumps its version counter (shared
// with its views, its base and its detach()es). Nothing for inference tensors, which have none.
void note_torch_write(pybind11::handle tensor);

}  // namespace tensorbuf::python
