// substr on CUDA: the driver of src/kernels/substr.hpp (sizes -> CUB exclusive scan of the
// output offsets -> copy; kLanes threads per string above the average-length threshold) on the
// CUDA executor. One host read: the output's total size (with kError's first bad index).
#include "core/dtype_dispatch.hpp"
#include "core/plan_substr.hpp"
#include "cuda/cuda_executor.cuh"
#include "kernels/substr.hpp"

namespace tensorbuf::cuda {

core::SubstrResult substr(const core::SubstrPlan& plan, const core::SubstrArgs& args,
                          const core::CudaContext& context) {
  CudaExecutor executor(context);
  return core::dispatch_index_type(plan.index_type, [&](auto tag) {
    using Index = typename decltype(tag)::type;
    kernels::SubstrView<Index> view;
    view.in_offsets = args.in_offsets;
    view.in_chars = args.in_chars;
    view.pos = static_cast<const Index*>(args.pos);
    view.len = static_cast<const Index*>(args.len);
    view.map = plan.map;
    const kernels::SubstrDriverResult r = kernels::run_substr(
        executor, view, plan.out_size, plan.in_size, plan.in_chars,
        plan.unit == SubstrUnit::kUtf8Char, plan.policy == OutOfBoundsPolicy::kError,
        args.out_offsets, [&](std::int64_t total) { return args.allocate_chars(total); });
    core::SubstrResult result;
    result.first_bad_index = r.first_bad_index;
    result.total_bytes = r.total_bytes;
    return result;
  });
}

}  // namespace tensorbuf::cuda
