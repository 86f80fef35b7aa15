#include <cuda_runtime_api.h>

#include "cuda_spin.hpp"

namespace tensorbuf::testing {
namespace {

__device__ unsigned long long global_ns() {
  unsigned long long t = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void spin_then_fill_kernel(float* data, long long n, float value,
                                      unsigned long long nanoseconds) {
  if (threadIdx.x == 0) {
    const unsigned long long start = global_ns();
    while (global_ns() - start < nanoseconds) {
    }
  }
  __syncthreads();
  for (long long i = threadIdx.x; i < n; i += blockDim.x) data[i] = value;
}

__global__ void copy_kernel(float* dst, const float* src, long long n) {
  for (long long i = threadIdx.x; i < n; i += blockDim.x) dst[i] = src[i];
}

}  // namespace

void spin_then_fill(float* data, std::int64_t n, float value, int milliseconds, void* stream) {
  const unsigned long long nanoseconds = 1000000ull * static_cast<unsigned>(milliseconds);
  spin_then_fill_kernel<<<1, 256, 0, static_cast<cudaStream_t>(stream)>>>(data, n, value,
                                                                          nanoseconds);
}

void copy_floats(float* dst, const float* src, std::int64_t n, void* stream) {
  copy_kernel<<<1, 256, 0, static_cast<cudaStream_t>(stream)>>>(dst, src, n);
}

}  // namespace tensorbuf::testing
