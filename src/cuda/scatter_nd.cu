// cuda::scatter_nd: picks the combine op's file (the executor makes the context's device current).
#include "cuda/scatter_nd.cuh"

namespace tensorbuf::cuda {

core::ScatterNdResult scatter_nd(const core::ScatterNdPlan& plan,
                                 const core::ScatterNdBuffers& buffers,
                                 const core::CudaContext& context) {
  switch (plan.op) {
#define TENSORBUF_SCATTER_CASE(name, op, what) \
  case core::ScatterOp::op:                      \
    return scatter_nd_##name(plan, buffers, context);
    TENSORBUF_SCATTER_COMBINES(TENSORBUF_SCATTER_CASE)
#undef TENSORBUF_SCATTER_CASE
  }
  throw InternalError("unknown scatter op");
}

}  // namespace tensorbuf::cuda
