// scatter_elements with reduction max on CUDA: the driver instantiated for every dtype.
#include "cuda/scatter_elements.cuh"

namespace tensorbuf::cuda {

core::AxisIndexResult scatter_elements_max(const core::ScatterElementsPlan& plan,
                                          const core::ScatterElementsBuffers& buffers,
                                          const core::CudaContext& context) {
  return run_scatter_elements_op<core::ScatterOp::kMax>(plan, buffers, context);
}

}  // namespace tensorbuf::cuda
