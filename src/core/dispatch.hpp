// Choosing where an op runs, and the context its CUDA entry point gets.
#pragma once

#include <optional>

#include "core/cuda_context.hpp"
#include "core/device_memory.hpp"
#include "core/export_for_mpi.hpp"
#include "tensorbuf/ops.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::core {

// Throws UnavailableError (with the reason) when `device` is CUDA and cannot be used.
void require_usable(Device device);

// The device an op runs on: `requested` if set, else CUDA when `primary`'s freshest copy is
// only on the device, else the CPU. Throws UnavailableError (with the reason) when the result
// is CUDA and CUDA cannot be used.
TENSORBUF_INTERNAL_FOR_MPI Device resolve_device(const std::optional<Device>& requested,
                                                 const TensorBuffer& primary);

// kDeviceDefault -> kError on the CPU, kDrop on CUDA.
inline OutOfBoundsPolicy resolve_policy(OutOfBoundsPolicy policy, Device device) {
  if (policy != OutOfBoundsPolicy::kDeviceDefault) return policy;
  return device.is_cuda() ? OutOfBoundsPolicy::kDrop : OutOfBoundsPolicy::kError;
}

// Context for running on `device` (a CUDA device) on the caller's `stream` or the library's.
CudaContext cuda_context(Device device, Stream stream);

}  // namespace tensorbuf::core
