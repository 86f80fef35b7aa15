// The CUDA backend of boolean_mask_update: the driver of src/kernels/boolean_mask_update.hpp
// with the CUDA executor. The op only moves bytes, so the kernels are instantiated once per
// carrier size (1, 2, 4, 8 and 16 bytes: contiguous trailing elements move several at a time),
// each with an int32 scan (M < 2^31) and an int64 one.
#include "core/boolean_mask_update_backends.hpp"
#include "cuda/cuda_executor.cuh"
#include "kernels/boolean_mask_update.hpp"

namespace tensorbuf::cuda {

core::BooleanMaskUpdateResult boolean_mask_update(const core::BooleanMaskUpdatePlan& plan,
                                                  const core::BooleanMaskUpdateBuffers& buffers,
                                                  const core::CudaContext& context) {
  CudaExecutor ex(context);
  return kernels::run_boolean_mask_update(ex, plan, buffers);
}

}  // namespace tensorbuf::cuda
