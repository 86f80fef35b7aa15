// DLPack export and import (docs/interop.md, I2): zero-copy both ways over shared storage.
#include "tensorbuf/dlpack.hpp"

#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/buffer_access.hpp"
#include "core/error_macros.hpp"
#include "core/storage.hpp"

// The layout of DLPack 1.x, from its specification (64-bit targets).
static_assert(sizeof(DLDevice) == 8 && offsetof(DLDevice, device_id) == 4);
static_assert(sizeof(DLDataType) == 4 && offsetof(DLDataType, lanes) == 2);
static_assert(offsetof(DLTensor, device) == 8 && offsetof(DLTensor, ndim) == 16 &&
              offsetof(DLTensor, dtype) == 20 && offsetof(DLTensor, shape) == 24 &&
              offsetof(DLTensor, strides) == 32 && offsetof(DLTensor, byte_offset) == 40 &&
              sizeof(DLTensor) == 48);
static_assert(offsetof(DLManagedTensor, manager_ctx) == 48 &&
              offsetof(DLManagedTensor, deleter) == 56 && sizeof(DLManagedTensor) == 64);
static_assert(sizeof(DLPackVersion) == 8);
static_assert(offsetof(DLManagedTensorVersioned, manager_ctx) == 8 &&
              offsetof(DLManagedTensorVersioned, deleter) == 16 &&
              offsetof(DLManagedTensorVersioned, flags) == 24 &&
              offsetof(DLManagedTensorVersioned, dl_tensor) == 32 &&
              sizeof(DLManagedTensorVersioned) == 80);
static_assert(kDLBool == 6 && kDLBfloat == 4 && kDLCUDA == 2 && kDLCUDAHost == 3);
static_assert(DLPACK_FLAG_BITMASK_READ_ONLY == 1 && DLPACK_FLAG_BITMASK_IS_COPIED == 2);

namespace tensorbuf {
namespace {

// ---- Export ----

DLDataType dl_type(DataType type, bool versioned) {
  const auto bits = static_cast<std::uint8_t>(type_size(type) * 8);
  switch (type) {
    case DataType::kBool:
      TENSORBUF_EXPECTS(versioned, InvalidArgumentError,
                        "a bool buffer cannot be exported as a legacy DLManagedTensor (DLPack "
                        "before 1.0 has no bool); use to_dlpack_versioned");
      return DLDataType{static_cast<std::uint8_t>(kDLBool), 8, 1};
    case DataType::kUInt8:
      return DLDataType{kDLUInt, bits, 1};
    case DataType::kInt8:
    case DataType::kInt16:
    case DataType::kInt32:
    case DataType::kInt64:
      return DLDataType{kDLInt, bits, 1};
    case DataType::kBFloat16:
      return DLDataType{kDLBfloat, bits, 1};
    case DataType::kFloat16:
    case DataType::kFloat32:
    case DataType::kFloat64:
      return DLDataType{kDLFloat, bits, 1};
  }
  throw InvalidArgumentError("unknown DataType");
}

// One allocation per export: the managed struct, the storage it keeps alive, shape and strides.
template <class Managed>
struct ExportHolder {
  Managed managed{};
  std::shared_ptr<core::Storage> storage;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
  bool home = false;

  static void deleter(Managed* self) {
    auto* holder = static_cast<ExportHolder*>(self->manager_ctx);
    holder->storage->end_export(holder->home);
    delete holder;
  }
};

template <class Managed>
Managed* export_buffer(const TensorBuffer& buffer, const DLPackExportOptions& options,
                       bool versioned) {
  const DLDataType dtype = dl_type(buffer.data_type(), versioned);
  auto holder = std::make_unique<ExportHolder<Managed>>();
  holder->storage = core::BufferAccess::shared_storage(buffer);
  holder->shape = buffer.shape().dims();
  holder->strides.resize(holder->shape.size());
  std::int64_t stride = 1;
  for (std::size_t d = holder->shape.size(); d-- > 0;) {
    holder->strides[d] = stride;
    stride *= holder->shape[d];
  }
  const bool writable = !(versioned && options.read_only);
  const core::Storage::Export pinned =
      holder->storage->begin_export(writable, versioned, options.consumer_stream.handle);
  holder->home = pinned.home;

  DLTensor& t = holder->managed.dl_tensor;
  t.data = pinned.data;
  t.device = pinned.side == core::Side::kDevice
                 ? DLDevice{kDLCUDA, pinned.device}
                 : DLDevice{kDLCPU, 0};
  t.ndim = static_cast<std::int32_t>(holder->shape.size());
  t.dtype = dtype;
  t.shape = holder->shape.data();
  t.strides = holder->strides.data();
  t.byte_offset = 0;
  holder->managed.manager_ctx = holder.get();
  holder->managed.deleter = &ExportHolder<Managed>::deleter;
  if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) {
    holder->managed.version = DLPackVersion{kDLPackMajorVersion, kDLPackMinorVersion};
    holder->managed.flags =
        pinned.read_only || options.read_only ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
  }
  return &holder.release()->managed;
}

// ---- Import ----

DataType import_type(const DLDataType& dtype, bool as_bool) {
  TENSORBUF_EXPECTS(dtype.lanes == 1, InvalidArgumentError,
                    core::str_cat("DLPack: vector dtypes (lanes = ", dtype.lanes,
                                  ") are not supported"));
  DataType type{};
  bool known = true;
  switch (dtype.code) {
    case kDLInt:
      if (dtype.bits == 8) type = DataType::kInt8;
      else if (dtype.bits == 16) type = DataType::kInt16;
      else if (dtype.bits == 32) type = DataType::kInt32;
      else if (dtype.bits == 64) type = DataType::kInt64;
      else known = false;
      break;
    case kDLUInt:
      known = dtype.bits == 8;
      type = DataType::kUInt8;
      break;
    case kDLFloat:
      if (dtype.bits == 16) type = DataType::kFloat16;
      else if (dtype.bits == 32) type = DataType::kFloat32;
      else if (dtype.bits == 64) type = DataType::kFloat64;
      else known = false;
      break;
    case kDLBfloat:
      known = dtype.bits == 16;
      type = DataType::kBFloat16;
      break;
    default:
      known = dtype.code == static_cast<std::uint8_t>(kDLBool) && dtype.bits == 8;
      type = DataType::kBool;
  }
  TENSORBUF_EXPECTS(known, InvalidArgumentError,
                    core::str_cat("DLPack: unsupported dtype (code ", int{dtype.code}, ", bits ",
                                  int{dtype.bits}, ")"));
  if (as_bool && (type == DataType::kUInt8 || type == DataType::kInt8)) type = DataType::kBool;
  return type;
}

Device import_device(const DLDevice& device) {
  // The producer's int, read as an int: a C producer may store any value, and a C++ load of one
  // outside DLDeviceType's range is undefined behaviour (UBSan's -fsanitize=enum).
  std::int32_t type = 0;
  static_assert(sizeof type == sizeof device.device_type);
  std::memcpy(&type, &device.device_type, sizeof type);
  switch (type) {
    case kDLCPU:
    case kDLCUDAHost:
      return Device::cpu();
    case kDLCUDA:
      return Device::cuda(device.device_id);
    default:
      throw InvalidArgumentError(
          core::str_cat("DLPack: unsupported device type ", type,
                        " (tensorbuf takes CPU, CUDA host and CUDA memory)"));
  }
}

// C-contiguous, with size-1 dims' strides ignored (and every stride of an empty tensor).
void check_contiguous(const DLTensor& t, const Shape& shape) {
  if (t.strides == nullptr || shape.num_elements() == 0) return;
  std::int64_t expected = 1;
  for (int d = shape.rank() - 1; d >= 0; --d) {
    TENSORBUF_EXPECTS(shape[d] == 1 || t.strides[d] == expected, InvalidArgumentError,
                      core::str_cat("DLPack: only C-contiguous tensors are taken; dim ", d,
                                    " of shape ", shape.to_string(), " has stride ",
                                    t.strides[d], ", expected ", expected));
    expected *= shape[d];
  }
}

// data + byte_offset. The memory a capsule claims, [data + byte_offset, + its bytes), must lie
// inside the address space: a sum that wraps is no producer's memory, and as a pointer sum it
// is undefined behaviour. (A byte count int64 cannot hold is borrow's error.)
void* offset_data(const DLTensor& t, const Shape& shape, DataType type) {
  if (t.data == nullptr) return nullptr;
  std::uintptr_t address = 0;
  TENSORBUF_EXPECTS(
      !__builtin_add_overflow(reinterpret_cast<std::uintptr_t>(t.data), t.byte_offset, &address),
      InvalidArgumentError,
      core::str_cat("DLPack: byte_offset ", t.byte_offset, " from data at ", t.data,
                    " wraps around the address space"));
  std::int64_t bytes = 0;
  std::uintptr_t end = 0;
  TENSORBUF_EXPECTS(
      __builtin_mul_overflow(shape.num_elements(), static_cast<std::int64_t>(type_size(type)),
                             &bytes) ||
          !__builtin_add_overflow(address, static_cast<std::uint64_t>(bytes), &end),
      InvalidArgumentError,
      core::str_cat("DLPack: the ", bytes, " bytes of a ", shape.to_string(), " ", to_string(type),
                    " tensor at data + byte_offset = ", reinterpret_cast<void*>(address),
                    " run past the end of the address space"));
  return reinterpret_cast<void*>(address);
}

template <class Managed>
TensorBuffer import_tensor(Managed* managed, const DLPackImportOptions& options, bool read_only) {
  const DLTensor& t = managed->dl_tensor;
  TENSORBUF_EXPECTS(t.ndim >= 0 && (t.ndim == 0 || t.shape != nullptr), InvalidArgumentError,
                    core::str_cat("DLPack: invalid ndim ", t.ndim, " or null shape"));
  const Shape shape(std::vector<std::int64_t>(t.shape, t.shape + t.ndim));
  const DataType type = import_type(t.dtype, options.as_bool);
  const Device device = import_device(t.device);
  check_contiguous(t, shape);
  TENSORBUF_EXPECTS(t.data != nullptr || shape.num_elements() == 0, InvalidArgumentError,
                    core::str_cat("DLPack: null data for shape ", shape.to_string()));
  void* data = offset_data(t, shape, type);
  core::BorrowedMemory memory;
  memory.read_only = read_only;
  memory.ready_stream = options.stream.handle;
  memory.order_release_on_ready_stream = true;
  memory.release = [managed](Stream) {
    if (managed->deleter != nullptr) managed->deleter(managed);
  };
  return core::BufferAccess::borrow(data, shape, type, device, std::move(memory));
}

// Calls the capsule's deleter if the import fails before the buffer takes it over.
template <class Managed>
TensorBuffer import_or_delete(Managed* managed, const DLPackImportOptions& options) {
  TENSORBUF_EXPECTS(managed != nullptr, InvalidArgumentError, "DLPack: null tensor");
  try {
    bool read_only = false;
    if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) {
      TENSORBUF_EXPECTS(managed->version.major == kDLPackMajorVersion, InvalidArgumentError,
                        core::str_cat("DLPack: major version ", managed->version.major,
                                      " is not supported (tensorbuf takes ",
                                      kDLPackMajorVersion, ".x)"));
      read_only = (managed->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
    }
    return import_tensor(managed, options, read_only);
  } catch (...) {
    if (managed->deleter != nullptr) managed->deleter(managed);
    throw;
  }
}

}  // namespace

DLManagedTensor* to_dlpack(const TensorBuffer& buffer, const DLPackExportOptions& options) {
  return export_buffer<DLManagedTensor>(buffer, options, /*versioned=*/false);
}

DLManagedTensorVersioned* to_dlpack_versioned(const TensorBuffer& buffer,
                                              const DLPackExportOptions& options) {
  return export_buffer<DLManagedTensorVersioned>(buffer, options, /*versioned=*/true);
}

TensorBuffer from_dlpack(DLManagedTensor* tensor, const DLPackImportOptions& options) {
  return import_or_delete(tensor, options);
}

TensorBuffer from_dlpack(DLManagedTensorVersioned* tensor, const DLPackImportOptions& options) {
  return import_or_delete(tensor, options);
}

}  // namespace tensorbuf
