// The distributed scatter's routing of a rank's rows on the device (src/kernels/route_rows.hpp
// on the CUDA executor; src/cuda/unavailable.cpp stands in without CUDA). src/mpi calls it for
// CUDA shards, so that the rows are bucketed where they live and only the send buffers cross
// to the host.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/cuda_context.hpp"
#include "core/scatter_nd_plan.hpp"

namespace tensorbuf::core {

// What the host learns from routing a rank's rows.
struct RoutedRows {
  std::vector<std::int64_t> counts;  // rows per owner, in rank order
  std::int64_t first_bad = -1;       // the first row out of bounds, or -1
  std::vector<std::int64_t> bad_components;
};

}  // namespace tensorbuf::core

namespace tensorbuf::cuda {

// Routes `rows` rows of device `indices` (plan.index_dtype, plan.depth per row) and device
// `slices` (slice_bytes per row) by the layout `offsets` (ranks + 1 first rows): the rows in
// bounds, grouped by owner in rank order and each owner's rows in row order, go to
// `send_index` (int64, depth per row, the owner's first row taken from component 0) and
// `send_slices` (room for `rows` rows each). Those are host buffers (pinned for a fast copy;
// the stream is waited for) or, `on_device`, device memory on the context's device written in
// stream order (the caller waits before another stream or MPI reads them).
core::RoutedRows route_rows(const core::ScatterNdPlan& plan, const void* indices,
                            const void* slices, std::int64_t rows,
                            const std::vector<std::int64_t>& offsets, std::size_t slice_bytes,
                            std::int64_t* send_index, void* send_slices, bool on_device,
                            const core::CudaContext& context);

}  // namespace tensorbuf::cuda
