// The CUDA backend of gather_nd: the driver of src/kernels/gather_nd.hpp with the CUDA executor,
// once per index dtype (each with the five carrier sizes and both policies).
#include "core/dtype_dispatch.hpp"
#include "core/gather_nd_backends.hpp"
#include "cuda/cuda_executor.cuh"
#include "kernels/gather_nd.hpp"

namespace tensorbuf::cuda {

core::GatherNdResult gather_nd(const core::GatherNdPlan& plan, const core::GatherNdBuffers& buffers,
                               const core::CudaContext& context) {
  CudaExecutor ex(context);
  return core::dispatch_index_type(plan.index_dtype, [&](auto tag) {
    using Index = typename decltype(tag)::type;
    return kernels::run_gather_nd<Index>(ex, plan, buffers);
  });
}

}  // namespace tensorbuf::cuda
