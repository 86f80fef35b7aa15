// tensorbuf._torch_fast: the optional accelerator for torch tensor arguments. Reads a torch
// tensor's TensorImpl and bumps its version counter in C++ (instead of torch 1.13's Python-level
// getters, 40-130 ns each, and set_, 0.3 us), and hands both to _tensorbuf as a table of
// functions in a capsule (python/src/torch_fast_api.hpp). Built only against the torch the
// interpreter imports (python/torch_fast/CMakeLists.txt), loaded only when torch.__version__ is
// the one built for (_torch_fast_loader.py); _tensorbuf works the same without it.
#include <cstring>

#include <torch/csrc/autograd/python_variable.h>  // THPVariable_CheckExact, THPVariable_Unpack
#include <c10/core/GradMode.h>

#include "torch_fast_api.hpp"

namespace {

using tensorbuf::python::TorchFastApi;
using tensorbuf::python::TorchTensorView;

// tensorbuf's dtypes in TorchObjects::dtypes' order (bool ... float64).
int dtype_index(c10::ScalarType type) {
  switch (type) {
    case c10::ScalarType::Bool: return 0;
    case c10::ScalarType::Byte: return 1;
    case c10::ScalarType::Char: return 2;
    case c10::ScalarType::Short: return 3;
    case c10::ScalarType::Int: return 4;
    case c10::ScalarType::Long: return 5;
    case c10::ScalarType::Half: return 6;
    case c10::ScalarType::BFloat16: return 7;
    case c10::ScalarType::Float: return 8;
    case c10::ScalarType::Double: return 9;
    default: return -1;
  }
}

int read(PyObject* object, TorchTensorView* view) noexcept {
  // A subclass may change what its attributes say (__torch_function__): only Tensor and
  // Parameter, which torch itself treats as plain tensors, are read here.
  if (!THPVariable_CheckExact(object)) return 0;
  try {
    c10::TensorImpl* impl = THPVariable_Unpack(object).unsafeGetTensorImpl();
    // Wrapper tensors (__torch_dispatch__, functorch) and custom sizes go the general way.
    if (!impl->is_cpu() || impl->layout() != c10::kStrided || !impl->has_storage() ||
        impl->is_python_dispatch() ||
        !impl->dtype_initialized() || !impl->storage_initialized()) {
      return 0;
    }
    const c10::IntArrayRef sizes = impl->sizes();
    view->sizes = sizes.data();
    view->rank = static_cast<std::int64_t>(sizes.size());
    view->dtype = dtype_index(c10::typeMetaToScalarType(impl->dtype()));
    view->contiguous = impl->is_contiguous();
    view->negative = impl->is_neg();
    view->conjugate = impl->is_conj();
    view->requires_grad = impl->requires_grad();
    view->grad_enabled = c10::GradMode::is_enabled();
    view->data = impl->data();
    return 1;
  } catch (...) {  // c10::Error from a tensor of an unusual kind: the general route copes
    return 0;
  }
}

int bump_version(PyObject* object) noexcept {
  if (!THPVariable_CheckExact(object)) return 0;
  try {
    c10::TensorImpl* impl = THPVariable_Unpack(object).unsafeGetTensorImpl();
    if (!impl->is_inference()) impl->bump_version();
    return 1;
  } catch (const std::exception& error) {
    PyErr_SetString(PyExc_RuntimeError, error.what());
    return -1;
  }
}

const TorchFastApi api{TorchFastApi::kVersion, &read, &bump_version};

PyModuleDef module_def{PyModuleDef_HEAD_INIT, "_torch_fast",
                       "tensorbuf's optional accelerator for torch tensor arguments", -1,
                       nullptr, nullptr, nullptr, nullptr, nullptr};

}  // namespace

extern "C" __attribute__((visibility("default"))) PyObject* PyInit__torch_fast() {
  // torch must be imported, and be the version this module was compiled for: its Tensor type
  // (THPVariableClass) is set by torch._C's initialisation.
  PyObject* torch = PyDict_GetItemString(PyImport_GetModuleDict(), "torch");  // borrowed
  PyObject* version = torch == nullptr ? nullptr : PyObject_GetAttrString(torch, "__version__");
  const char* text = version == nullptr ? nullptr : PyUnicode_AsUTF8(version);
  const bool same = text != nullptr && std::strcmp(text, TENSORBUF_TORCH_VERSION) == 0;
  Py_XDECREF(version);
  PyErr_Clear();
  if (!same || THPVariableClass == nullptr) {
    PyErr_SetString(PyExc_ImportError, "tensorbuf._torch_fast needs torch " TENSORBUF_TORCH_VERSION
                                       ", imported first");
    return nullptr;
  }
  PyObject* module = PyModule_Create(&module_def);
  if (module == nullptr) return nullptr;
  PyObject* capsule = PyCapsule_New(const_cast<TorchFastApi*>(&api),
                                    tensorbuf::python::kTorchFastCapsule, nullptr);
  if (capsule == nullptr || PyModule_AddObject(module, "_api", capsule) != 0) {
    Py_XDECREF(capsule);  // PyModule_AddObject steals it only when it succeeds
    Py_DECREF(module);
    return nullptr;
  }
  if (PyModule_AddStringConstant(module, "torch_version", TENSORBUF_TORCH_VERSION) != 0) {
    Py_DECREF(module);
    return nullptr;
  }
  return module;
}
