// The CUDA backend of gather_elements: the driver of src/kernels/gather_elements.hpp with the
// CUDA executor, once per index dtype (each with the four element sizes and both policies).
#include "core/dtype_dispatch.hpp"
#include "core/elements_backends.hpp"
#include "cuda/cuda_executor.cuh"
#include "kernels/gather_elements.hpp"

namespace tensorbuf::cuda {

core::AxisIndexResult gather_elements(const core::GatherElementsPlan& plan,
                                      const core::GatherElementsBuffers& buffers,
                                      const core::CudaContext& context) {
  CudaExecutor ex(context);
  return core::dispatch_index_type(plan.index_dtype, [&](auto tag) {
    using Index = typename decltype(tag)::type;
    return kernels::run_gather_elements<Index>(ex, plan, buffers);
  });
}

}  // namespace tensorbuf::cuda
