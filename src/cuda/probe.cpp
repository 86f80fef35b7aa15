// CUDA availability: built in, driver present and recent enough, at least one device.
#include <cuda_runtime_api.h>

#include <string>

#include "core/backend.hpp"

namespace tensorbuf::cuda {

ProbeResult probe() {
  ProbeResult result;
  int driver = 0;
  int runtime = 0;
  cudaRuntimeGetVersion(&runtime);
  if (cudaDriverGetVersion(&driver) != cudaSuccess || driver == 0) {
    cudaGetLastError();
    result.availability = CudaAvailability::kNoDriver;
    result.reason = "no driver: no NVIDIA driver is installed or loadable";
    return result;
  }
  if (driver < runtime) {
    result.availability = CudaAvailability::kDriverTooOld;
    result.reason = "driver too old: driver supports CUDA " + std::to_string(driver / 1000) + "." +
                    std::to_string(driver % 1000 / 10) + ", tensorbuf needs " +
                    std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10);
    return result;
  }
  int count = 0;  // left unset by a failing call on machines without a GPU
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    cudaGetLastError();
    result.availability = status == cudaErrorInsufficientDriver ? CudaAvailability::kDriverTooOld
                          : (status == cudaSuccess || status == cudaErrorNoDevice)
                              ? CudaAvailability::kNoDevice
                              : CudaAvailability::kError;
    result.reason = std::string(result.availability == CudaAvailability::kNoDevice
                                    ? "no device: "
                                    : "error: ") +
                    (status == cudaSuccess ? "no CUDA device found" : cudaGetErrorString(status));
    return result;
  }
  cudaDeviceProp prop{};
  std::string name = "unknown";
  if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) name = prop.name;
  result.availability = CudaAvailability::kAvailable;
  result.device_count = count;
  result.reason = "available: " + std::to_string(count) + " device(s) (" + name + ")";
  return result;
}

std::string build_info() {
  return "CUDA " + std::to_string(CUDART_VERSION / 1000) + "." +
         std::to_string(CUDART_VERSION % 1000 / 10) + ", sm_" TENSORBUF_CUDA_ARCHITECTURES;
}

}  // namespace tensorbuf::cuda
