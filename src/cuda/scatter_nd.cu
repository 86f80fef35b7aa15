// cuda::scatter_nd: picks the combine op's file (the executor makes the context's device current).
#include "cuda/scatter_nd.cuh"

namespace tensorbuf::cuda {

core::ScatterNdResult scatter_nd(const core::ScatterNdPlan& plan,
                                 const core::ScatterNdBuffers& buffers,
                                 const core::CudaContext& context) {
  switch (plan.op) {
    case core::ScatterOp::kSub:
      return scatter_nd_sub(plan, buffers, context);
    case core::ScatterOp::kAdd:
      return scatter_nd_add(plan, buffers, context);
    case core::ScatterOp::kUpdate:
      return scatter_nd_update(plan, buffers, context);
    case core::ScatterOp::kMin:
      return scatter_nd_min(plan, buffers, context);
    case core::ScatterOp::kMax:
      return scatter_nd_max(plan, buffers, context);
  }
  throw InternalError("unknown scatter op");
}

}  // namespace tensorbuf::cuda
