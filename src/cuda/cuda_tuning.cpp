#include "cuda/cuda_tuning.hpp"

#include <mutex>

namespace tensorbuf::cuda {
namespace {

std::mutex g_mutex;
CudaTuning g_tuning;

}  // namespace

CudaTuning cuda_tuning() {
  std::lock_guard lock(g_mutex);
  return g_tuning;
}

void set_cuda_tuning(const CudaTuning& tuning) {
  std::lock_guard lock(g_mutex);
  g_tuning = tuning;
}

}  // namespace tensorbuf::cuda
