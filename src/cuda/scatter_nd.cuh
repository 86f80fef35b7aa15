// The CUDA backend of the scatter ops: the driver of src/kernels/scatter_nd.hpp on the CUDA
// executor, one .cu file per combine op (so they compile in parallel), the radix sort of the
// deterministic path in scatter_nd_sort.cu only.
#pragma once

#include <cstdint>

#include "core/dtype_dispatch.hpp"
#include "core/scatter_nd_backends.hpp"
#include "cuda/cuda_executor.cuh"
#include "kernels/scatter_nd.hpp"

namespace tensorbuf::cuda {

// The deterministic path's sort (stable, by key), defined in scatter_nd_sort.cu; found by
// argument-dependent lookup from kernels::run_scatter_nd, so CUB's sort is compiled once.
void sort_rows_by_slice(CudaExecutor& executor, std::uint32_t* keys, std::int64_t* rows,
                        std::int64_t n);
void sort_rows_by_slice(CudaExecutor& executor, std::uint64_t* keys, std::int64_t* rows,
                        std::int64_t n);

// One per combine op (core/op_table.hpp), each in its own .cu file: scatter_nd_<name>.cu.
#define TENSORBUF_SCATTER_DECLARE(name, op, what)                                \
  core::ScatterNdResult scatter_nd_##name(const core::ScatterNdPlan& plan,       \
                                          const core::ScatterNdBuffers& buffers, \
                                          const core::CudaContext& context);
TENSORBUF_SCATTER_COMBINES(TENSORBUF_SCATTER_DECLARE)
#undef TENSORBUF_SCATTER_DECLARE

// The driver for every element and index dtype of one op.
template <core::ScatterOp Op>
core::ScatterNdResult run_scatter_nd_op(const core::ScatterNdPlan& plan,
                                        const core::ScatterNdBuffers& buffers,
                                        const core::CudaContext& context) {
  CudaExecutor executor(context);
  return core::dispatch_type(plan.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return core::dispatch_index_type(plan.index_dtype, [&](auto index_tag) {
      using Index = typename decltype(index_tag)::type;
      return kernels::run_scatter_nd<Op, T, Index>(executor, plan, buffers);
    });
  });
}

}  // namespace tensorbuf::cuda
