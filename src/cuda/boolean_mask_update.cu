// The CUDA backend of boolean_mask_update: the driver of src/kernels/boolean_mask_update.hpp
// with the CUDA executor. The op only moves bytes, so the kernels are instantiated once per
// carrier size (1, 2, 4, 8 and 16 bytes: contiguous trailing elements move several at a time),
// each with an int32 scan (M < 2^31) and an int64 one.
#include "core/plan_boolean_mask_update.hpp"
#include "cuda/cuda_executor.cuh"
#include "kernels/boolean_mask_update.hpp"

namespace tensorbuf::cuda {

core::MaskUpdateResult boolean_mask_update(const core::BooleanMaskUpdatePlan& plan,
                                           const core::MaskUpdateBuffers& buffers,
                                           const core::CudaContext& context) {
  CudaExecutor ex(context);
  return kernels::run_boolean_mask_update_widened(ex, plan.layout, plan.element_size,
                                                  plan.required_count, buffers.mask,
                                                  buffers.tensor, buffers.updates, buffers.out);
}

}  // namespace tensorbuf::cuda
