// The backends of quantize_linear and dequantize_linear (src/cpu, src/cuda;
// src/cuda/unavailable.cpp stands in without CUDA).
#pragma once

#include "core/cuda_context.hpp"
#include "core/quantize_linear_plan.hpp"

namespace tensorbuf::cpu {

// buffers.x holds float32 elements (float64 when plan.x_type is float64: the op converts other
// dtypes to float32 first), buffers.y plan.y_type's; on the thread pool.
void quantize_linear(const core::LinearPlan& plan, const core::LinearBuffers& buffers);
// buffers.x holds plan.x_type's elements, buffers.y float32; on the thread pool.
void dequantize_linear(const core::LinearPlan& plan, const core::LinearBuffers& buffers);

}  // namespace tensorbuf::cpu

namespace tensorbuf::cuda {

// One pass on context.stream, no host wait (the parameter tables are written by kernels).
void quantize_linear(const core::LinearPlan& plan, const core::LinearBuffers& buffers,
                     const core::CudaContext& context);
void dequantize_linear(const core::LinearPlan& plan, const core::LinearBuffers& buffers,
                       const core::CudaContext& context);

}  // namespace tensorbuf::cuda
