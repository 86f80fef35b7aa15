#include "torch_autograd.hpp"

#include <string>

#include "tensorbuf/errors.hpp"

namespace tensorbuf::python {

namespace py = pybind11;

namespace {

// torch.Tensor once torch has been imported by anyone; a strong reference kept for the
// process (torch is never unloaded). Read and set with the GIL held.
PyObject* tensor_type() {
  static PyObject* type = nullptr;
  if (type == nullptr) {
    PyObject* torch = PyDict_GetItemString(PyImport_GetModuleDict(), "torch");  // borrowed
    if (torch == nullptr) return nullptr;
    PyObject* tensor = PyObject_GetAttrString(torch, "Tensor");
    if (tensor == nullptr) {
      PyErr_Clear();  // torch half-imported: no tensor exists yet
      return nullptr;
    }
    type = tensor;
  }
  return type;
}

}  // namespace

bool is_torch_tensor(py::handle object) {
  PyObject* type = tensor_type();
  if (type == nullptr) return false;
  const int is = PyObject_IsInstance(object.ptr(), type);
  if (is < 0) throw py::error_already_set();
  return is == 1;
}

py::object without_grad(py::handle object, const char* name) {
  if (!object.attr("requires_grad").cast<bool>()) return py::reinterpret_borrow<py::object>(object);
  PyObject* torch = PyDict_GetItemString(PyImport_GetModuleDict(), "torch");  // borrowed
  if (!py::handle(torch).attr("is_grad_enabled")().cast<bool>()) return object.attr("detach")();
  throw InvalidArgumentError(
      std::string(name) +
      ": the torch tensor requires grad, and autograd cannot record tensorbuf's ops (its "
      "gradients would be wrong); pass tensor.detach(), or call under torch.no_grad() (as "
      "optimizers update parameters)");
}

void note_torch_write(py::handle tensor) {
  // set_ to itself changes nothing but is an in-place op to autograd: it bumps the version
  // counter (0.3 us; as_strided_ to the same geometry does too, at 1 us).
  try {
    tensor.attr("set_")(tensor);
  } catch (const py::error_already_set&) {
    // An inference tensor (outside inference mode set_ raises): it has no counter to bump.
    if (!tensor.attr("is_inference")().cast<bool>()) throw;
  }
}

}  // namespace tensorbuf::python
