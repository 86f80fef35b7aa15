// cuda::scatter_elements: picks the reduction's file.
#include "cuda/scatter_elements.cuh"

namespace tensorbuf::cuda {

core::AxisIndexResult scatter_elements(const core::ScatterElementsPlan& plan,
                                       const core::ScatterElementsBuffers& buffers,
                                       const core::CudaContext& context) {
  using core::ScatterOp;
  switch (plan.op) {
    case ScatterOp::kUpdate: return scatter_elements_none(plan, buffers, context);
    case ScatterOp::kAdd: return scatter_elements_add(plan, buffers, context);
    case ScatterOp::kMul: return scatter_elements_mul(plan, buffers, context);
    case ScatterOp::kMin: return scatter_elements_min(plan, buffers, context);
    case ScatterOp::kMax: return scatter_elements_max(plan, buffers, context);
    default: break;
  }
  throw InternalError("scatter_elements: unplanned reduction");
}

}  // namespace tensorbuf::cuda
