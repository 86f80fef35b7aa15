// cuda::scatter_nd: picks the combine op's file; runs on the context's device and stream.
#include <cuda_runtime_api.h>

#include "cuda/cuda_check.hpp"
#include "cuda/scatter_nd.cuh"

namespace tensorbuf::cuda {
namespace {

// Makes `device` current for the launches, restoring the caller's device after.
class CurrentDevice {
 public:
  explicit CurrentDevice(int device) {
    TENSORBUF_CUDA_TRY(cudaGetDevice(&previous_));
    if (previous_ != device) TENSORBUF_CUDA_TRY(cudaSetDevice(device));
  }
  CurrentDevice(const CurrentDevice&) = delete;
  CurrentDevice& operator=(const CurrentDevice&) = delete;
  ~CurrentDevice() {
    int current = previous_;
    if (cudaGetDevice(&current) == cudaSuccess && current != previous_) cudaSetDevice(previous_);
  }

 private:
  int previous_ = 0;
};

}  // namespace

core::ScatterNdResult scatter_nd(const core::ScatterNdPlan& plan,
                                 const core::ScatterNdBuffers& buffers,
                                 const core::CudaContext& context) {
  CurrentDevice current(context.device);
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
