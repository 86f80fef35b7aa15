// CurrentDevice: makes a CUDA device current for a scope (kernels launch on the current
// device), restoring the caller's device at the end.
#pragma once

#include <cuda_runtime_api.h>

#include "cuda/cuda_check.hpp"

namespace tensorbuf::cuda {

class CurrentDevice {
 public:
  explicit CurrentDevice(int device) {
    TENSORBUF_CUDA_TRY(cudaGetDevice(&previous_));
    if (previous_ != device) TENSORBUF_CUDA_TRY(cudaSetDevice(device));
  }
  CurrentDevice(const CurrentDevice&) = delete;
  CurrentDevice& operator=(const CurrentDevice&) = delete;
  ~CurrentDevice() {
    int current = previous_;
    if (cudaGetDevice(&current) == cudaSuccess && current != previous_) cudaSetDevice(previous_);
  }

 private:
  int previous_ = 0;
};

}  // namespace tensorbuf::cuda
