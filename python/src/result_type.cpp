#include "result_type.hpp"

#include <cstdint>
#include <string>

#include "arguments.hpp"
#include "bindings.hpp"
#include "py_objects.hpp"
#include "tensorbuf/dlpack.hpp"
#include "tensorbuf/errors.hpp"
#include "torch_autograd.hpp"
#include "torch_objects.hpp"

namespace tensorbuf::python {

namespace py = pybind11;

namespace {

enum class OutType { kSame, kTensorBuffer, kNumpy, kTorch, kCupy };

constexpr const char* kWords[] = {"same", "tensorbuf", "numpy", "torch"};

OutType parse_out_type(py::handle out_type) {
  if (out_type.is_none()) return OutType::kSame;
  if (PyUnicode_Check(out_type.ptr())) {
    const std::string word = out_type.cast<std::string>();
    for (int i = 0; i < 4; ++i) {
      if (word == kWords[i]) return static_cast<OutType>(i);
    }
  }
  throw InvalidArgumentError("out_type must be same, tensorbuf, numpy or torch, not '" +
                             text_of(out_type) + "'");
}

bool is_cupy_array(py::handle like) {
  PyObject* module = PyObject_GetAttrString(reinterpret_cast<PyObject*>(Py_TYPE(like.ptr())),
                                            "__module__");
  if (module == nullptr) {
    PyErr_Clear();
    return false;
  }
  const bool cupy = PyUnicode_Check(module) &&
                    std::string_view(PyUnicode_AsUTF8(module)).substr(0, 4) == "cupy";
  Py_DECREF(module);
  return cupy;
}

OutType resolve(OutType asked, py::handle like) {
  if (asked != OutType::kSame) return asked;
  if (py::isinstance<PyTensorBuffer>(like)) return OutType::kTensorBuffer;
  if (is_torch_tensor(like)) return OutType::kTorch;
  if (!PyObject_CheckBuffer(like.ptr()) && is_cupy_array(like)) return OutType::kCupy;
  return OutType::kNumpy;
}

// A legacy DLPack tensor (torch 1.13 consumes no other) over a versioned export, whose deleter
// it calls: the versioned export carries what the legacy one cannot (bool, which travels as
// uint8 and is viewed as bool by torch).
void delete_legacy_over_versioned(DLManagedTensor* self) {
  auto* versioned = static_cast<DLManagedTensorVersioned*>(self->manager_ctx);
  delete self;
  if (versioned->deleter != nullptr) versioned->deleter(versioned);
}

void legacy_capsule_destructor(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, "dltensor")) return;  // consumed: renamed "used_dltensor"
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (managed != nullptr && managed->deleter != nullptr) managed->deleter(managed);
  PyErr_Restore(type, value, traceback);
}

// The stream a torch consumer of a CUDA result reads on: torch's current stream of the device
// (0, the legacy default stream, is DLPack's 1).
Stream torch_current_stream(const TorchObjects& torch, int device) {
  py::object stream = py::handle(torch.module).attr("cuda").attr("current_stream")(device);
  const auto handle = stream.attr("cuda_stream").cast<std::uintptr_t>();
  return Stream{reinterpret_cast<void*>(handle == 0 ? std::uintptr_t{1} : handle)};
}

py::object to_torch(TensorBuffer result) {
  const TorchObjects* torch = torch_objects();
  if (torch == nullptr) {
    py::module_::import("torch");  // out_type="torch" asked for it
    torch = torch_objects();
    if (torch == nullptr) throw InvalidArgumentError("out_type=\"torch\": torch did not import");
  }
  // torch tensors are always writable: a read-only result is copied rather than shared.
  if (views_read_only(result)) result = result.clone();
  DLPackExportOptions options;
  const Device home = result.residence();
  if (home.is_cuda()) options.consumer_stream = torch_current_stream(*torch, home.index);
  DLManagedTensorVersioned* versioned = to_dlpack_versioned(result, options);
  auto* legacy = new DLManagedTensor{versioned->dl_tensor, versioned, &delete_legacy_over_versioned};
  const bool is_bool = result.data_type() == DataType::kBool;
  if (is_bool) legacy->dl_tensor.dtype = DLDataType{kDLUInt, 8, 1};
  py::capsule capsule(legacy, "dltensor", &legacy_capsule_destructor);
  py::object tensor = py::reinterpret_borrow<py::object>(torch->from_dlpack)(capsule);
  if (is_bool) tensor = tensor.attr("view")(py::handle(torch->dtypes[0]));
  return tensor;
}

py::object to_cupy(TensorBuffer result) {
  py::object cupy = py::module_::import("cupy");
  return cupy.attr("from_dlpack")(wrap_buffer(std::move(result)));
}

}  // namespace

py::tuple out_type_words() {
  py::tuple words(4);
  for (std::size_t i = 0; i < 4; ++i) words[i] = py::str(kWords[i]);
  return words;
}

py::object wrap_result(TensorBuffer result, py::handle like, py::handle out_type) {
  switch (resolve(parse_out_type(out_type), like)) {
    case OutType::kTensorBuffer: return wrap_buffer(std::move(result));
    case OutType::kTorch: return to_torch(std::move(result));
    case OutType::kCupy: return to_cupy(std::move(result));
    case OutType::kNumpy:
    case OutType::kSame: break;
  }
  return numpy_view(result, false);
}

}  // namespace tensorbuf::python
