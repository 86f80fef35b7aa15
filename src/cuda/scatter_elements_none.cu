// scatter_elements with reduction none on CUDA: the driver instantiated for every dtype.
#include "cuda/scatter_elements.cuh"

namespace tensorbuf::cuda {

core::AxisIndexResult scatter_elements_none(const core::ScatterElementsPlan& plan,
                                          const core::ScatterElementsBuffers& buffers,
                                          const core::CudaContext& context) {
  return run_scatter_elements_op<core::ScatterOp::kUpdate>(plan, buffers, context);
}

}  // namespace tensorbuf::cuda
