// The CUDA backend of the processing ops: the fused Processor's chain (which also runs
// normalize, quantize, dequantize and cast) and quantize_linear / dequantize_linear, the drivers
// of src/kernels with the CUDA executor. The dtypes are run-time values inside the kernels:
// one chain kernel, and a float and a double quantize_linear kernel.
#include "core/processing_backends.hpp"
#include "core/quantize_linear_backends.hpp"
#include "cuda/cuda_executor.cuh"
#include "kernels/process_chain.hpp"
#include "kernels/quantize_linear.hpp"

namespace tensorbuf::cuda {

void process(const core::ProcessPlan& plan, const core::ProcessBuffers& buffers,
             const core::CudaContext& context) {
  CudaExecutor ex(context);
  kernels::run_process(ex, plan, buffers);
}

void quantize_linear(const core::LinearPlan& plan, const core::LinearBuffers& buffers,
                     const core::CudaContext& context) {
  CudaExecutor ex(context);
  kernels::run_quantize_linear(ex, plan, buffers);
}

void dequantize_linear(const core::LinearPlan& plan, const core::LinearBuffers& buffers,
                       const core::CudaContext& context) {
  CudaExecutor ex(context);
  kernels::run_dequantize_linear(ex, plan, buffers);
}

}  // namespace tensorbuf::cuda
