// tensor_scatter_nd_mul on CUDA: the scatter driver instantiated for every dtype.
#include "cuda/scatter_nd.cuh"

namespace tensorbuf::cuda {

core::ScatterNdResult scatter_nd_mul(const core::ScatterNdPlan& plan,
                                     const core::ScatterNdBuffers& buffers,
                                     const core::CudaContext& context) {
  return run_scatter_nd_op<core::ScatterOp::kMul>(plan, buffers, context);
}

}  // namespace tensorbuf::cuda
