#include "torch_autograd.hpp"

#include <string>

#include "tensorbuf/errors.hpp"
#include "torch_objects.hpp"

namespace tensorbuf::python {

namespace py = pybind11;

bool is_torch_tensor(py::handle object) {
  const TorchObjects* torch = torch_objects();
  return torch != nullptr && PyObject_TypeCheck(object.ptr(), torch->tensor);
}

py::object without_grad(py::handle object, const char* name) {
  if (!object.attr("requires_grad").cast<bool>()) return py::reinterpret_borrow<py::object>(object);
  PyObject* torch = PyDict_GetItemString(PyImport_GetModuleDict(), "torch");  // borrowed
  if (!py::handle(torch).attr("is_grad_enabled")().cast<bool>()) return object.attr("detach")();
  throw_requires_grad(name);
}

void throw_requires_grad(const char* name) {
  throw InvalidArgumentError(
      std::string(name) +
      ": the torch tensor requires grad, and autograd cannot record tensorbuf's ops (its "
      "gradients would be wrong); pass tensor.detach(), or call under torch.no_grad() (as "
      "optimizers update parameters)");
}

void note_torch_write(py::handle tensor) {
  const TorchObjects* torch = torch_objects();
  if (const TorchFastApi* fast = torch_fast(*torch)) {
    const int done = fast->bump_version(tensor.ptr());
    if (done < 0) throw py::error_already_set();
    if (done == 1) {
      ++torch_fast_use().bumps;
      return;
    }
  }
  // set_ to itself changes nothing but is an in-place op to autograd: it bumps the version
  // counter (0.3 us; as_strided_ to the same geometry does too, at 1 us).
  PyObject* args[] = {tensor.ptr(), tensor.ptr()};
  PyObject* result = Py_TYPE(tensor.ptr()) == torch->tensor && torch->set_descriptor != nullptr
                         ? PyObject_Vectorcall(torch->set_descriptor, args, 2, nullptr)
                         : PyObject_CallMethodOneArg(tensor.ptr(), torch->set_, tensor.ptr());
  if (result != nullptr) {
    Py_DECREF(result);
    return;
  }
  py::error_already_set error;
  // An inference tensor (outside inference mode set_ raises): it has no counter to bump.
  if (!tensor.attr("is_inference")().cast<bool>()) throw error;
}

}  // namespace tensorbuf::python
