// tensor_scatter_nd_sub on CUDA: the scatter driver instantiated for every dtype.
#include "cuda/scatter_nd.cuh"

namespace tensorbuf::cuda {

core::ScatterNdResult scatter_nd_sub(const core::ScatterNdPlan& plan,
                                     const core::ScatterNdBuffers& buffers,
                                     const core::CudaContext& context) {
  return run_scatter_nd_op<core::ScatterOp::kSub>(plan, buffers, context);
}

}  // namespace tensorbuf::cuda
