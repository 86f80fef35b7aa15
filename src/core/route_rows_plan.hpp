// The distributed scatter's routing of a rank's rows by owner (src/kernels/route_rows.hpp): the
// plan, the buffers and what the host learns. Plain data only: the kernels include this header
// (DESIGN.md, "The op template"); the backend entry is core/route_rows_backend.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/scatter_nd_plan.hpp"

namespace tensorbuf::core {

// Which rank owns each of a rank's rows: the rank whose rows hold its first index component, by
// the row layout.
struct RouteRowsPlan {
  ScatterNdPlan scatter;                  // the rows' depth, index dtype and bounds
  std::int64_t rows = 0;                  // this rank's rows
  std::span<const std::int64_t> offsets;  // host: each rank's first row, then the total (ranks + 1)
  std::size_t slice_bytes = 0;            // one row's slice of updates
  // The send buffers are device memory on the run's device (a CUDA-aware MPI reads them), written
  // in stream order; otherwise host memory (pinned for a fast copy), the stream waited for.
  bool on_device = false;
};

// Raw pointers. `indices` and `slices` are on the run's device; the send buffers have room for
// plan.rows rows and receive the rows in bounds, grouped by owner in rank order and each owner's
// rows in row order.
struct RouteRowsBuffers {
  const void* indices = nullptr;       // plan.scatter.index_dtype, depth per row
  const void* slices = nullptr;        // plan.slice_bytes per row
  std::int64_t* send_index = nullptr;  // int64, depth per row, component 0 made owner-local
  void* send_slices = nullptr;         // plan.slice_bytes per row
};

// What the host learns from routing a rank's rows.
struct RoutedRows {
  std::vector<std::int64_t> counts;  // rows per owner, in rank order
  std::int64_t first_bad = -1;       // the first row out of bounds, or -1
  std::vector<std::int64_t> bad_components;
};

}  // namespace tensorbuf::core
