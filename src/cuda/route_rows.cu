// The distributed scatter's routing of a rank's rows on the device: the route_rows driver
// (src/kernels/route_rows.hpp) on the CUDA executor, for both index types.
#include "core/dtype_dispatch.hpp"
#include "core/route_rows_backend.hpp"
#include "cuda/cuda_executor.cuh"
#include "kernels/route_rows.hpp"

namespace tensorbuf::cuda {

core::RoutedRows route_rows(const core::ScatterNdPlan& plan, const void* indices,
                            const void* slices, std::int64_t rows,
                            const std::vector<std::int64_t>& offsets, std::size_t slice_bytes,
                            std::int64_t* send_index, void* send_slices, bool on_device,
                            const core::CudaContext& context) {
  CudaExecutor executor(context);
  const kernels::ScatterGeometry geometry = kernels::executor_geometry(executor, plan);
  const auto depth = static_cast<std::size_t>(plan.depth);
  // Host destinations: gathered on the device first, then only the kept rows cross.
  auto* device_index = on_device ? send_index : executor.scratch<std::int64_t>(rows * plan.depth);
  auto* device_slices =
      on_device ? send_slices
                : executor.scratch<std::byte>(rows * static_cast<std::int64_t>(slice_bytes));
  return core::dispatch_index_type(plan.index_dtype, [&](auto tag) {
    using Index = typename decltype(tag)::type;
    core::RoutedRows routed =
        kernels::route_rows(executor, static_cast<const Index*>(indices), slices, rows, geometry,
                            offsets, slice_bytes, device_index, device_slices);
    if (on_device) return routed;
    std::int64_t kept = 0;
    for (const std::int64_t count : routed.counts) kept += count;
    executor.copy_to_host(send_index, device_index,
                          static_cast<std::size_t>(kept) * depth * sizeof(std::int64_t));
    executor.copy_to_host(send_slices, device_slices, static_cast<std::size_t>(kept) * slice_bytes);
    return routed;
  });
}

}  // namespace tensorbuf::cuda
