// The distributed scatter's routing of a rank's rows on the device: the route_rows driver
// (src/kernels/route_rows.hpp) on the CUDA executor, for both index types.
#include "core/dtype_dispatch.hpp"
#include "core/route_rows_backend.hpp"
#include "cuda/cuda_executor.cuh"
#include "kernels/route_rows.hpp"

namespace tensorbuf::cuda {

core::RoutedRows route_rows(const core::RouteRowsPlan& plan, const core::RouteRowsBuffers& buffers,
                            const core::CudaContext& context) {
  CudaExecutor executor(context);
  const auto depth = static_cast<std::size_t>(plan.scatter.depth);
  // Host destinations: gathered on the device first, then only the kept rows cross.
  core::RouteRowsBuffers on_device = buffers;
  if (!plan.on_device) {
    on_device.send_index = executor.scratch<std::int64_t>(plan.rows * plan.scatter.depth);
    on_device.send_slices =
        executor.scratch<std::byte>(plan.rows * static_cast<std::int64_t>(plan.slice_bytes));
  }
  return core::dispatch_index_type(plan.scatter.index_dtype, [&](auto tag) {
    using Index = typename decltype(tag)::type;
    core::RoutedRows routed = kernels::route_rows<Index>(executor, plan, on_device);
    if (plan.on_device) return routed;
    std::int64_t kept = 0;
    for (const std::int64_t count : routed.counts) kept += count;
    executor.copy_to_host(buffers.send_index, on_device.send_index,
                          static_cast<std::size_t>(kept) * depth * sizeof(std::int64_t));
    executor.copy_to_host(buffers.send_slices, on_device.send_slices,
                          static_cast<std::size_t>(kept) * plan.slice_bytes);
    return routed;
  });
}

}  // namespace tensorbuf::cuda
