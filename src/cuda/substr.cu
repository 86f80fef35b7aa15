// substr on CUDA: the driver of src/kernels/substr.hpp (sizes -> CUB exclusive scan of the
// output offsets -> copy; kLanes threads per string above the average-length threshold) on the
// CUDA executor. One host read: the output's total size (with kError's first bad index), and
// one more on the error path (the bad element's pos); none in the bounded form the op chooses
// in a capture (plan.chars_capacity, docs/capture.md).
#include "core/dtype_dispatch.hpp"
#include "core/substr_backends.hpp"
#include "cuda/cuda_executor.cuh"
#include "cuda/cuda_tuning.hpp"
#include "kernels/substr.hpp"

namespace tensorbuf::cuda {

core::SubstrResult substr(const core::SubstrPlan& plan, const core::SubstrBuffers& buffers,
                          const core::AllocateChars& allocate_chars,
                          const core::CudaContext& context) {
  kernels::SubstrDriverConfig config;
  const CudaTuning tuning = cuda_tuning();
  if (tuning.substr_lane_threshold >= 0) config.lane_threshold = tuning.substr_lane_threshold;
  config.lane_scan = tuning.substr_lane_scan;
  config.lane_copy = tuning.substr_lane_copy;
  config.byte_offsets = tuning.substr_byte_offsets;
  config.capacity = plan.chars_capacity;
  CudaExecutor executor(context);
  return core::dispatch_index_type(plan.index_type, [&](auto tag) {
    using Index = typename decltype(tag)::type;
    return kernels::run_substr<Index>(executor, plan, buffers, allocate_chars, config);
  });
}

}  // namespace tensorbuf::cuda
