#include "dlpack_bridge.hpp"

#include <cstdint>
#include <string>

#include "arguments.hpp"
#include "gil.hpp"
#include "tensorbuf/errors.hpp"

namespace tensorbuf::python {

namespace {

constexpr const char* kLegacyName = "dltensor";
constexpr const char* kLegacyUsedName = "used_dltensor";
constexpr const char* kVersionedName = "dltensor_versioned";
constexpr const char* kVersionedUsedName = "used_dltensor_versioned";

// A capsule nobody consumed deletes its tensor (DLPack's Python rule); the current exception,
// if any, survives the destructor.
template <class Managed>
void delete_unconsumed(PyObject* capsule, const char* name) {
  if (!PyCapsule_IsValid(capsule, name)) return;  // consumed: renamed "used_..."
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  auto* managed = static_cast<Managed*>(PyCapsule_GetPointer(capsule, name));
  if (managed != nullptr && managed->deleter != nullptr) managed->deleter(managed);
  PyErr_Restore(type, value, traceback);
}
void legacy_destructor(PyObject* capsule) { delete_unconsumed<DLManagedTensor>(capsule, kLegacyName); }
void versioned_destructor(PyObject* capsule) {
  delete_unconsumed<DLManagedTensorVersioned>(capsule, kVersionedName);
}

// The imported tensor behind a wrapper whose deleter takes the GIL: producers' deleters (NumPy's)
// drop Python references, and tensorbuf may release the memory on any thread (I1).
template <class Managed>
void gil_deleter(Managed* outer) {
  auto* inner = static_cast<Managed*>(outer->manager_ctx);
  delete outer;
  if (inner->deleter != nullptr) with_gil([inner] { inner->deleter(inner); });
}
template <class Managed>
Managed* with_gil_deleter(Managed* inner) {
  auto* outer = new Managed(*inner);
  outer->manager_ctx = inner;
  outer->deleter = &gil_deleter<Managed>;
  return outer;
}

Stream consumer_stream(py::handle stream) {
  if (stream.is_none()) return Stream{reinterpret_cast<void*>(std::uintptr_t{1})};  // legacy
  const auto value = stream.cast<std::int64_t>();
  if (value == -1) return Stream{};  // the consumer asks for no ordering
  if (value == 0) {
    throw py::value_error("__dlpack__: stream 0 is ambiguous for CUDA (DLPack): pass 1 for the "
                          "legacy default stream or 2 for the per-thread one");
  }
  return Stream{reinterpret_cast<void*>(static_cast<std::uintptr_t>(value))};
}

// What __dlpack__(dl_device=..., copy=...) exports: the buffer, or a copy on that device.
std::optional<TensorBuffer> copy_for_export(const TensorBuffer& buffer, py::handle dl_device,
                                            py::handle copy) {
  const auto [type, id] = dlpack_device(buffer);
  const bool other_device =
      !dl_device.is_none() && (dl_device[py::int_(0)].cast<int>() != type ||
                               dl_device[py::int_(1)].cast<int>() != id);
  const bool copy_asked = !copy.is_none() && copy.cast<bool>();
  if (other_device && !copy.is_none() && !copy.cast<bool>()) {
    throw py::buffer_error("__dlpack__: dl_device differs from the buffer's device and copy=False");
  }
  if (!other_device && !copy_asked) return std::nullopt;
  TensorBuffer clone = buffer.clone();
  if (other_device) {
    const int dl_type = dl_device[py::int_(0)].cast<int>();
    if (dl_type != kDLCPU && dl_type != kDLCUDA) {
      throw py::buffer_error("__dlpack__: tensorbuf exports to CPU or CUDA devices only");
    }
    const Device target = dl_type == kDLCUDA ? Device::cuda(dl_device[py::int_(1)].cast<int>())
                                             : Device::cpu();
    clone.sync_to(target);
    if (target.is_cuda()) clone.evict(Device::cpu());
  }
  return clone;
}

}  // namespace

std::pair<int, int> dlpack_device(const TensorBuffer& buffer) {
  const Device device = buffer.residence();
  if (device.is_cuda()) return {kDLCUDA, device.index};
  return {kDLCPU, 0};
}

py::capsule export_capsule(const TensorBuffer& buffer, py::handle stream, py::handle max_version,
                           py::handle dl_device, py::handle copy) {
  const bool versioned = !max_version.is_none() && max_version[py::int_(0)].cast<int>() >= 1;
  std::optional<TensorBuffer> copied = copy_for_export(buffer, dl_device, copy);
  const TensorBuffer& source = copied ? *copied : buffer;
  DLPackExportOptions options;
  if (source.residence().is_cuda()) options.consumer_stream = consumer_stream(stream);
  options.read_only = source.is_read_only();
  if (versioned) {
    DLManagedTensorVersioned* tensor = to_dlpack_versioned(source, options);
    if (copied) tensor->flags |= DLPACK_FLAG_BITMASK_IS_COPIED;
    return py::capsule(tensor, kVersionedName, &versioned_destructor);
  }
  try {
    return py::capsule(to_dlpack(source, options), kLegacyName, &legacy_destructor);
  } catch (const InvalidArgumentError& e) {
    // Read-only or bool: the legacy form cannot say so; NumPy raises BufferError too.
    throw py::buffer_error(std::string(e.what()) + " (ask for the versioned form: "
                           "__dlpack__(max_version=(1, 0)))");
  }
}

py::capsule export_for_numpy(const TensorBuffer& buffer, DLManagedTensorVersioned** tensor) {
  DLPackExportOptions options;
  options.read_only = buffer.is_read_only();
  *tensor = to_dlpack_versioned(buffer, options);
  // A NumPy array's base: the export lives (and the memory stays put) as long as the array.
  return py::capsule(*tensor, [](void* p) {
    auto* managed = static_cast<DLManagedTensorVersioned*>(p);
    if (managed->deleter != nullptr) managed->deleter(managed);
  });
}

TensorBuffer import_capsule(py::handle capsule, const DLPackImportOptions& options) {
  PyObject* object = capsule.ptr();
  if (PyCapsule_IsValid(object, kVersionedName)) {
    auto* tensor = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(object, kVersionedName));
    PyCapsule_SetName(object, kVersionedUsedName);
    return from_dlpack(with_gil_deleter(tensor), options);
  }
  if (PyCapsule_IsValid(object, kLegacyName)) {
    auto* tensor = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(object, kLegacyName));
    PyCapsule_SetName(object, kLegacyUsedName);
    return from_dlpack(with_gil_deleter(tensor), options);
  }
  if (PyCapsule_IsValid(object, kLegacyUsedName) || PyCapsule_IsValid(object, kVersionedUsedName)) {
    throw InvalidArgumentError("DLPack: this capsule was already consumed (a capsule is "
                               "imported once)");
  }
  throw InvalidArgumentError("DLPack: not a 'dltensor' or 'dltensor_versioned' capsule");
}

TensorBuffer import_object(py::handle object, Stream stream) {
  py::object source = py::reinterpret_borrow<py::object>(object);
  DLPackImportOptions options;
  options.stream = stream;
  // torch before 2.x cannot export bool: its uint8 view shares the memory.
  if (py::hasattr(object, "dtype") && py::str(object.attr("dtype")).cast<std::string>() == "torch.bool") {
    source = object.attr("view")(py::module_::import("torch").attr("uint8"));
    options.as_bool = true;
  }
  py::object producer_stream = py::none();
  if (py::hasattr(source, "__dlpack_device__")) {
    py::tuple device = source.attr("__dlpack_device__")();
    if (device[0].cast<int>() == kDLCUDA) producer_stream = dlpack_stream_argument(stream);
  }
  py::object capsule;
  try {
    capsule = source.attr("__dlpack__")(py::arg("stream") = producer_stream,
                                         py::arg("max_version") = py::make_tuple(1, 0));
  } catch (const py::error_already_set& e) {
    if (!e.matches(PyExc_TypeError)) throw;  // a producer without max_version: legacy call
    capsule = source.attr("__dlpack__")(py::arg("stream") = producer_stream);
  }
  return import_capsule(capsule, options);
}

}  // namespace tensorbuf::python
