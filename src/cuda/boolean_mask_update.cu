// The CUDA backend of boolean_mask_update: the driver of src/kernels/boolean_mask_update.hpp
// with the CUDA executor. The op only moves bytes, so the kernels are instantiated once per
// carrier size (1, 2, 4, 8 and 16 bytes: contiguous trailing elements move several at a time),
// each with an int32 scan (M < 2^31) and an int64 one, and per write-pass variant and
// tile-scan variant (cuda/cuda_tuning.hpp).
#include "core/boolean_mask_update_backends.hpp"
#include "cuda/cuda_executor.cuh"
#include "cuda/cuda_tuning.hpp"
#include "kernels/boolean_mask_update.hpp"

namespace tensorbuf::cuda {

core::BooleanMaskUpdateResult boolean_mask_update(const core::BooleanMaskUpdatePlan& plan,
                                                  const core::BooleanMaskUpdateBuffers& buffers,
                                                  const core::CudaContext& context) {
  const CudaTuning tuning = cuda_tuning();
  const bool in_place = buffers.out == buffers.tensor;
  const kernels::MaskUpdatePass pass =
      in_place                  ? tuning.mask_update_in_place
      : plan.layout.inner == 1 ? tuning.mask_update_out_of_place_flat
                               : tuning.mask_update_out_of_place;
  CudaExecutor ex(context);
  return kernels::run_boolean_mask_update(ex, plan, buffers, pass, tuning.mask_update_ranks);
}

}  // namespace tensorbuf::cuda
