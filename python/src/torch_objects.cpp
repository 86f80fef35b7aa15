#include "torch_objects.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "gil.hpp"
#include "torch_autograd.hpp"

namespace tensorbuf::python {

namespace py = pybind11;

namespace {

// A new reference to module.name, or null (error cleared).
PyObject* attribute(PyObject* object, const char* name) {
  PyObject* value = PyObject_GetAttrString(object, name);
  if (value == nullptr) PyErr_Clear();
  return value;
}

// The accelerator, through tensorbuf._torch_fast_loader (absent from a build without it),
// which checks that it was built for this torch; any failure leaves the pure path.
void load_fast(TorchObjects& objects) {
  PyObject* loader = PyImport_ImportModule("tensorbuf._torch_fast_loader");
  if (loader == nullptr) {
    PyErr_Clear();
    objects.fast_status = "not built";
    return;
  }
  PyObject* result = PyObject_CallMethod(loader, "load", nullptr);
  Py_DECREF(loader);
  if (result == nullptr) {
    PyErr_Clear();
    objects.fast_status = "the loader raised";
    return;
  }
  if (PyCapsule_IsValid(result, kTorchFastCapsule)) {
    const auto* api = static_cast<const TorchFastApi*>(PyCapsule_GetPointer(result, kTorchFastCapsule));
    if (api->version == TorchFastApi::kVersion) {
      objects.fast = api;  // the module stays imported: the table lives for the process
      objects.fast_status = "loaded";
    } else {
      objects.fast_status = "table version " + std::to_string(api->version);
    }
  } else if (const char* why = PyUnicode_Check(result) ? PyUnicode_AsUTF8(result) : nullptr) {
    objects.fast_status = why;
  }
  PyErr_Clear();
  Py_DECREF(result);
}

// Looks torch's objects up; null (and nothing kept) while torch is half-imported.
TorchObjects* look_up(PyObject* torch) {
  auto objects = std::make_unique<TorchObjects>();
  objects->module = torch;
  PyObject* tensor = attribute(torch, "Tensor");
  if (tensor == nullptr || !PyType_Check(tensor)) {
    Py_XDECREF(tensor);
    return nullptr;
  }
  objects->tensor = reinterpret_cast<PyTypeObject*>(tensor);
  objects->strided = attribute(torch, "strided");
  objects->from_dlpack = attribute(torch, "from_dlpack");
  objects->is_grad_enabled = attribute(torch, "is_grad_enabled");
  const char* names[] = {"bool", "uint8", "int8", "int16", "int32", "int64",
                         "float16", "bfloat16", "float32", "float64"};
  bool complete = objects->strided != nullptr && objects->from_dlpack != nullptr &&
                  objects->is_grad_enabled != nullptr;
  for (std::size_t i = 0; i < objects->dtypes.size(); ++i) {
    objects->dtypes[i] = attribute(torch, names[i]);
    complete = complete && objects->dtypes[i] != nullptr;
  }
  if (!complete) return nullptr;  // leaks a few references once, while torch imports
  PyTypeObject* base = objects->tensor->tp_base;  // torch._C._TensorBase
  for (auto [slot, name, method] :
       {std::tuple{&objects->layout, "layout", false}, {&objects->is_cpu, "is_cpu", false},
        {&objects->dtype, "dtype", false}, {&objects->requires_grad, "requires_grad", false},
        {&objects->is_contiguous, "is_contiguous", true}, {&objects->is_neg, "is_neg", true},
        {&objects->shape, "shape", false}, {&objects->data_ptr, "data_ptr", true}}) {
    slot->name = PyUnicode_InternFromString(name);
    slot->method = method;
    // Only a descriptor of the kind expected, found on _TensorBase and not overridden by
    // torch.Tensor, is called directly.
    PyObject* own = PyDict_GetItemWithError(objects->tensor->tp_dict, slot->name);  // borrowed
    PyObject* found = base == nullptr || own != nullptr
                          ? nullptr : PyDict_GetItemWithError(base->tp_dict, slot->name);
    PyErr_Clear();
    if (found != nullptr &&
        Py_TYPE(found) == (method ? &PyMethodDescr_Type : &PyGetSetDescr_Type)) {
      Py_INCREF(found);
      slot->descriptor = found;
    }
  }
  objects->set_ = PyUnicode_InternFromString("set_");
  if (base != nullptr && PyDict_GetItemWithError(objects->tensor->tp_dict, objects->set_) == nullptr) {
    PyObject* found = PyDict_GetItemWithError(base->tp_dict, objects->set_);
    if (found != nullptr && Py_TYPE(found) == &PyMethodDescr_Type) {
      Py_INCREF(found);
      objects->set_descriptor = found;
    }
  }
  PyErr_Clear();
  load_fast(*objects);
  Py_INCREF(torch);
  return objects.release();
}

// A TensorBuffer over a CPU torch tensor's memory, keeping the tensor alive while it lives.
TensorBuffer borrow_tensor(py::handle tensor, void* data, const Shape& shape, DataType type) {
  PyObject* object = tensor.ptr();
  BorrowOptions borrow;
  Py_INCREF(object);  // the tensor (its storage) lives as long as the borrow
  borrow.release = [object](Stream) { with_gil([object] { Py_DECREF(object); }); };
  try {
    return TensorBuffer::borrow(data, shape, type, Device::cpu(), std::move(borrow));
  } catch (...) {
    Py_DECREF(object);  // borrow() never calls release when it throws
    throw;
  }
}

// `object` (a tensor read by the accelerator into `view`) as borrow_torch_cpu takes it.
std::optional<TensorBuffer> borrow_read(py::handle object, const TorchTensorView& view,
                                        const char* name) {
  if (view.dtype < 0 || !view.contiguous || view.negative || view.conjugate) return std::nullopt;
  const auto type = static_cast<DataType>(view.dtype);
  if (view.requires_grad && view.grad_enabled) throw_requires_grad(name);
  const Shape shape(std::vector<std::int64_t>(view.sizes, view.sizes + view.rank));
  if (reinterpret_cast<std::uintptr_t>(view.data) % type_size(type) != 0) return std::nullopt;
  return borrow_tensor(object, shape.num_elements() == 0 ? nullptr : view.data, shape, type);
}

}  // namespace

namespace {

// tensor.<attribute>(), or null with the error cleared.
py::object read_or_null(PyObject* tensor, const TorchObjects::Attribute& attribute, bool exact) {
  try {
    return read_attribute(tensor, attribute, exact);
  } catch (const py::error_already_set&) {
    return py::object();
  }
}

}  // namespace

py::object read_attribute(PyObject* tensor, const TorchObjects::Attribute& attribute, bool exact) {
  PyObject* result = nullptr;
  if (exact && attribute.descriptor != nullptr) {
    if (attribute.method) {
      result = PyObject_Vectorcall(attribute.descriptor, &tensor, 1, nullptr);
    } else {
      PyGetSetDef* getset = reinterpret_cast<PyGetSetDescrObject*>(attribute.descriptor)->d_getset;
      result = getset->get(tensor, getset->closure);
    }
  } else {
    result = attribute.method ? PyObject_CallMethodNoArgs(tensor, attribute.name)
                              : PyObject_GetAttr(tensor, attribute.name);
  }
  if (result == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(result);
}

const TorchObjects* torch_objects() {
  static TorchObjects* objects = nullptr;
  if (objects == nullptr) {
    PyObject* torch = PyDict_GetItemString(PyImport_GetModuleDict(), "torch");  // borrowed
    if (torch == nullptr) return nullptr;
    objects = look_up(torch);
  }
  return objects;
}

TorchFastUse& torch_fast_use() {
  static TorchFastUse use;  // read and written with the GIL held
  return use;
}

const TorchFastApi* torch_fast(const TorchObjects& torch) {
  return torch_fast_use().enabled ? torch.fast : nullptr;
}

void bind_torch_fast(py::module_& m) {
  m.def("_torch_fast_state", [] {
    const TorchObjects* torch = torch_objects();
    const TorchFastUse& use = torch_fast_use();
    return py::dict(py::arg("status") = torch == nullptr ? "torch not imported" : torch->fast_status,
                    py::arg("enabled") = use.enabled, py::arg("reads") = use.reads,
                    py::arg("bumps") = use.bumps);
  }, "The torch accelerator tensorbuf._torch_fast: why (not) loaded, and its use so far.");
  m.def("_torch_fast_enable", [](bool enabled) { torch_fast_use().enabled = enabled; },
        py::arg("enabled"), "Uses the torch accelerator when loaded (True, the default) or not.");
}

std::optional<DataType> torch_data_type(const TorchObjects& torch, PyObject* dtype) {
  for (std::size_t i = 0; i < torch.dtypes.size(); ++i) {
    if (torch.dtypes[i] == dtype) return static_cast<DataType>(i);
  }
  return std::nullopt;
}

std::optional<TensorBuffer> borrow_torch_cpu(py::handle handle, const char* name) {
  const TorchObjects* torch = torch_objects();
  PyObject* object = handle.ptr();
  if (torch == nullptr || !PyObject_TypeCheck(object, torch->tensor)) return std::nullopt;
  if (const TorchFastApi* fast = torch_fast(*torch)) {
    TorchTensorView view;
    if (fast->read(object, &view) == 1) {
      ++torch_fast_use().reads;
      return borrow_read(handle, view, name);
    }
  }
  const bool exact = Py_TYPE(object) == torch->tensor;
  // Each read is one getter call (about 50 ns in torch 1.13, most of this path's cost). A read
  // that raises (a sparse or MKL-DNN tensor has no data_ptr) or a check that fails sends the
  // tensor the general way, which raises its own error or copes; the layout is not read: every
  // tensor without strided storage fails data_ptr().
  const auto read = [&](const TorchObjects::Attribute& attribute) {
    return read_attribute(object, attribute, exact);
  };
  if (read(torch->is_cpu).ptr() != Py_True) return std::nullopt;
  const std::optional<DataType> type = torch_data_type(*torch, read(torch->dtype).ptr());
  if (!type) return std::nullopt;
  // A negative view (x.conj().imag, a floating-point tensor) holds -values, which DLPack
  // would export as the memory holds them.
  const bool floating = *type == DataType::kFloat16 || *type == DataType::kBFloat16 ||
                        *type == DataType::kFloat32 || *type == DataType::kFloat64;
  if (floating && read(torch->is_neg).ptr() != Py_False) return std::nullopt;
  // Only floating-point tensors can require grad (torch raises for others).
  if (floating && read(torch->requires_grad).ptr() == Py_True) without_grad(handle, name);
  const py::object contiguous = read_or_null(object, torch->is_contiguous, exact);
  if (contiguous.ptr() != Py_True) return std::nullopt;
  const py::object shape_object = read_or_null(object, torch->shape, exact);
  if (!shape_object || !PyTuple_Check(shape_object.ptr())) return std::nullopt;
  const Py_ssize_t rank = PyTuple_GET_SIZE(shape_object.ptr());
  std::vector<std::int64_t> dims(static_cast<std::size_t>(rank));
  for (Py_ssize_t d = 0; d < rank; ++d) {
    dims[static_cast<std::size_t>(d)] = PyLong_AsLongLong(PyTuple_GET_ITEM(shape_object.ptr(), d));
  }
  if (PyErr_Occurred()) throw py::error_already_set();
  const py::object pointer = read_or_null(object, torch->data_ptr, exact);
  if (!pointer) return std::nullopt;
  const auto address = static_cast<std::uintptr_t>(PyLong_AsUnsignedLongLong(pointer.ptr()));
  if (PyErr_Occurred()) throw py::error_already_set();
  const Shape shape(std::move(dims));
  if (address % type_size(*type) != 0) return std::nullopt;
  return borrow_tensor(handle, shape.num_elements() == 0 ? nullptr : reinterpret_cast<void*>(address),
                       shape, *type);
}


}  // namespace tensorbuf::python
