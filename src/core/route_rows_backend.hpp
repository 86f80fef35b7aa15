// The distributed scatter's routing of a rank's rows on the device (src/kernels/route_rows.hpp
// on the CUDA executor; src/cuda/unavailable.cpp stands in without CUDA). src/mpi calls it for
// CUDA shards, so that the rows are bucketed where they live and only the send buffers cross
// to the host.
#pragma once

#include "core/cuda_context.hpp"
#include "core/export_for_mpi.hpp"
#include "core/route_rows_plan.hpp"

namespace tensorbuf::cuda {

// Routes plan.rows rows of buffers.indices and buffers.slices into the send buffers
// (core/route_rows_plan.hpp), on context's stream.
TENSORBUF_INTERNAL_FOR_MPI core::RoutedRows route_rows(const core::RouteRowsPlan& plan,
                                                       const core::RouteRowsBuffers& buffers,
                                                       const core::CudaContext& context);

}  // namespace tensorbuf::cuda
