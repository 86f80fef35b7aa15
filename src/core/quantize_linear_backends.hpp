// The CUDA backend of quantize_linear / dequantize_linear (the CPU computes them in
// core/op_quantize_linear.cpp; src/cuda/unavailable.cpp stands in without CUDA).
#pragma once

#include "core/cuda_context.hpp"
#include "core/quantize_linear_plan.hpp"

namespace tensorbuf::cuda {

// One pass on context.stream, no host wait (the parameter tables are written by kernels).
void quantize_linear(const core::LinearPlan& plan, const core::LinearBuffers& buffers,
                     const core::CudaContext& context);
void dequantize_linear(const core::LinearPlan& plan, const core::LinearBuffers& buffers,
                       const core::CudaContext& context);

}  // namespace tensorbuf::cuda
