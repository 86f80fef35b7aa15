// TENSORBUF_CUDA_TRY: turns a failed CUDA runtime call into a tensorbuf error naming the call
// and the CUDA error (out of memory -> ResourceExhaustedError, else InternalError).
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "tensorbuf/errors.hpp"

namespace tensorbuf::cuda {

[[noreturn]] inline void throw_cuda_error(cudaError_t status, const char* call) {
  cudaGetLastError();  // clear a sticky-free error so later calls are not blamed
  const std::string message = std::string(call) + " failed: " + cudaGetErrorName(status) + " (" +
                              cudaGetErrorString(status) + ")";
  if (status == cudaErrorMemoryAllocation) throw ResourceExhaustedError(message);
  throw InternalError(message);
}

}  // namespace tensorbuf::cuda

#define TENSORBUF_CUDA_TRY(call)                                                    \
  do {                                                                              \
    const cudaError_t tensorbuf_status_ = (call);                                   \
    if (tensorbuf_status_ != cudaSuccess) ::tensorbuf::cuda::throw_cuda_error(tensorbuf_status_, #call); \
  } while (0)
