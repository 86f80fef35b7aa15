// tensor_scatter_nd_update on CUDA: the scatter driver instantiated for every dtype.
#include "cuda/scatter_nd.cuh"

namespace tensorbuf::cuda {

core::ScatterNdResult scatter_nd_update(const core::ScatterNdPlan& plan,
                                        const core::ScatterNdBuffers& buffers,
                                        const core::CudaContext& context) {
  return run_scatter_nd_op<core::ScatterOp::kUpdate>(plan, buffers, context);
}

}  // namespace tensorbuf::cuda
