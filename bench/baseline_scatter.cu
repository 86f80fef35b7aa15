#include <cuda_runtime_api.h>

#include "baseline_scatter.hpp"

namespace tensorbuf::bench {
namespace {

__global__ void plain_scatter_sub_kernel(float* table, const std::int64_t* index,
                                         const float* updates, std::int64_t n) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) table[index[i]] -= updates[i];
}

}  // namespace

void plain_scatter_sub_f32(float* table, const std::int64_t* index, const float* updates,
                           std::int64_t n, void* stream) {
  constexpr int kBlock = 256;
  const auto blocks = static_cast<unsigned int>((n + kBlock - 1) / kBlock);
  if (blocks == 0) return;
  plain_scatter_sub_kernel<<<blocks, kBlock, 0, static_cast<cudaStream_t>(stream)>>>(
      table, index, updates, n);
}

}  // namespace tensorbuf::bench
