// The CUDA backend of scatter_elements: the driver of src/kernels/scatter_elements.hpp on the
// CUDA executor, one .cu file per reduction (so they compile in parallel); the deterministic
// path's sort is the scatter ops' (scatter_nd_sort.cu, found through scatter_nd.cuh).
#pragma once

#include "core/dtype_dispatch.hpp"
#include "core/elements_backends.hpp"
#include "cuda/cuda_executor.cuh"
#include "cuda/scatter_nd.cuh"
#include "kernels/scatter_elements.hpp"

namespace tensorbuf::cuda {

#define TENSORBUF_SCATTER_ELEMENTS_DECLARE(name)                                               \
  core::AxisIndexResult scatter_elements_##name(const core::ScatterElementsPlan& plan,         \
                                                const core::ScatterElementsBuffers& buffers,   \
                                                const core::CudaContext& context);
TENSORBUF_SCATTER_ELEMENTS_DECLARE(none)
TENSORBUF_SCATTER_ELEMENTS_DECLARE(add)
TENSORBUF_SCATTER_ELEMENTS_DECLARE(mul)
TENSORBUF_SCATTER_ELEMENTS_DECLARE(min)
TENSORBUF_SCATTER_ELEMENTS_DECLARE(max)
#undef TENSORBUF_SCATTER_ELEMENTS_DECLARE

// The driver for every element and index dtype of one reduction.
template <core::ScatterOp Op>
core::AxisIndexResult run_scatter_elements_op(const core::ScatterElementsPlan& plan,
                                              const core::ScatterElementsBuffers& buffers,
                                              const core::CudaContext& context) {
  CudaExecutor executor(context);
  return core::dispatch_type(plan.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return core::dispatch_index_type(plan.index_dtype, [&](auto index_tag) {
      using Index = typename decltype(index_tag)::type;
      return kernels::run_scatter_elements<Op, T, Index>(executor, plan, buffers);
    });
  });
}

}  // namespace tensorbuf::cuda
