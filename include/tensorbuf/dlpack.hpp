// DLPack both ways (docs/interop.md, spec I2): zero-copy export of a TensorBuffer and import of
// another framework's tensor as a borrowed TensorBuffer.
//
// Compiles with or without a system <dlpack/dlpack.h>. With one (Debian's libdlpack-dev is
// DLPack 0.6), it is used and only what it lacks is declared here: the versioned structs of
// DLPack 1.x, kDLBool and the flag bits. Without one (or with TENSORBUF_DLPACK_NO_SYSTEM_HEADER
// defined), everything is declared here, written from the DLPack specification and
// layout-compatible with it (static_asserts in src/core/dlpack.cpp).
#pragma once

#include <cstdint>

#if __has_include(<dlpack/dlpack.h>) && !defined(TENSORBUF_DLPACK_NO_SYSTEM_HEADER)
#include <dlpack/dlpack.h>
#else
// The unversioned part of the DLPack ABI (stable since 0.6). The system header's guard is
// defined too, so a later #include <dlpack/dlpack.h> adds nothing that would clash.
#define DLPACK_DLPACK_H_
extern "C" {
typedef enum {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
} DLDeviceType;
typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;
typedef enum {
  kDLInt = 0U,
  kDLUInt = 1U,
  kDLFloat = 2U,
  kDLOpaqueHandle = 3U,
  kDLBfloat = 4U,
  kDLComplex = 5U,
  kDLBool = 6U,
} DLDataTypeCode;
typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;
typedef struct {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;  // in elements; NULL: C-contiguous
  uint64_t byte_offset;
} DLTensor;
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;
}  // extern "C"
#define TENSORBUF_DLPACK_DECLARES_KDLBOOL 1
#endif

#ifndef DLPACK_MAJOR_VERSION
// DLPack 1.x's versioned ABI, absent before 1.0.
extern "C" {
typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;
}  // extern "C"
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
#if !defined(TENSORBUF_DLPACK_DECLARES_KDLBOOL) && (!defined(DLPACK_VERSION) || DLPACK_VERSION < 80)
// kDLBool arrived in DLPack 0.8; the enumerator cannot be added to an older enum, so it is a
// constant of the enum's type with the specification's value.
inline constexpr DLDataTypeCode kDLBool = static_cast<DLDataTypeCode>(6U);
#endif
#endif

#include "tensorbuf/export.h"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf {

/// The DLPack major version tensorbuf produces and accepts in the versioned form.
inline constexpr std::uint32_t kDLPackMajorVersion = 1;
inline constexpr std::uint32_t kDLPackMinorVersion = 0;

struct DLPackExportOptions {
  /// The consumer's stream: it is made to wait (an event) on the buffer's last write, never the
  /// host, and tensorbuf's next use of the buffer waits on the consumer's work recorded now.
  Stream consumer_stream{};
  /// Versioned form only: export with DLPACK_FLAG_BITMASK_READ_ONLY (the buffer keeps its home).
  bool read_only = false;
};

/// Zero-copy export of the buffer's freshest side (residence()). The capsule keeps the memory
/// alive until its deleter runs; while it lives, a writable export's side is the buffer's home
/// and the memory cannot move (a load of another size throws). InvalidArgumentError for a
/// read-only buffer or a bool buffer in the legacy form, which can express neither.
TENSORBUF_API DLManagedTensor* to_dlpack(const TensorBuffer& buffer,
                                         const DLPackExportOptions& options = {});
TENSORBUF_API DLManagedTensorVersioned* to_dlpack_versioned(
    const TensorBuffer& buffer, const DLPackExportOptions& options = {});

struct DLPackImportOptions {
  /// The producer's stream the data is ready on (the borrow's ready_stream); the foreign
  /// deleter runs once that stream is ordered after tensorbuf's last use (I5).
  Stream stream{};
  /// Import 8-bit integer data as kBool (a mask exported as uint8, as torch 1.13 must).
  bool as_bool = false;
};

/// Zero-copy import: takes ownership of `tensor` (its deleter is called exactly once, also
/// when this throws) and returns a borrowed buffer over its memory. C-contiguous tensors only
/// (strides of size-1 dims ignored, NULL strides contiguous), byte_offset honoured.
/// InvalidArgumentError for strides, dtypes, devices or versions it cannot take;
/// UnavailableError for CUDA memory without CUDA.
TENSORBUF_API TensorBuffer from_dlpack(DLManagedTensor* tensor,
                                       const DLPackImportOptions& options = {});
TENSORBUF_API TensorBuffer from_dlpack(DLManagedTensorVersioned* tensor,
                                       const DLPackImportOptions& options = {});

}  // namespace tensorbuf
