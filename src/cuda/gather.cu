// The CUDA backend of gather: the driver of src/kernels/gather.hpp with the CUDA executor, once
// per index dtype (each with the five carrier sizes and both policies).
#include "core/dtype_dispatch.hpp"
#include "core/gather_backends.hpp"
#include "cuda/cuda_executor.cuh"
#include "kernels/gather.hpp"

namespace tensorbuf::cuda {

core::AxisIndexResult gather(const core::GatherPlan& plan, const core::GatherBuffers& buffers,
                             const core::CudaContext& context) {
  CudaExecutor ex(context);
  return core::dispatch_index_type(plan.index_dtype, [&](auto tag) {
    using Index = typename decltype(tag)::type;
    return kernels::run_gather<Index>(ex, plan, buffers);
  });
}

}  // namespace tensorbuf::cuda
