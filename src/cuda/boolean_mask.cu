// The CUDA backend of boolean_mask (boolean_mask_into, compress): the driver of
// src/kernels/boolean_mask.hpp with the CUDA executor. The op only moves bytes, so the
// compaction is instantiated once per carrier size (1, 2, 4, 8 and 16 bytes), each with an
// int32 scan (M < 2^31) and an int64 one.
#include "core/boolean_mask_backends.hpp"
#include "cuda/cuda_executor.cuh"
#include "kernels/boolean_mask.hpp"

namespace tensorbuf::cuda {

core::BooleanMaskResult boolean_mask(const core::BooleanMaskPlan& plan,
                                     const core::BooleanMaskBuffers& buffers,
                                     const core::AllocateMasked& allocate,
                                     const core::CudaContext& context) {
  CudaExecutor ex(context);
  return kernels::run_boolean_mask(ex, plan, buffers, allocate);
}

}  // namespace tensorbuf::cuda
