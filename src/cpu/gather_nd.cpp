// The CPU backend of gather_nd: rows in contiguous chunks on the pool (core::parallel_for_chunks);
// each row's slice is checked (nd_rows.hpp's mapping, the scatter ops' bounds check) and copied
// by cpu/row_gather.hpp (shared with gather). kError: a chunk stops at its first bad row, and
// the first chunk that found one names it (chunks are in row order), so the row is the
// smallest whatever the thread count; the output is then discarded. kDrop: a bad row's slice
// is zeros.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/dtype_dispatch.hpp"
#include "core/gather_nd_backends.hpp"
#include "core/parallel.hpp"
#include "cpu/row_gather.hpp"
#include "kernels/nd_rows.hpp"

namespace tensorbuf::cpu {
namespace {

// Costs on one core for the pool's policy (core::min_chunk_for): a row's index check and copy
// call, and each byte it copies.
constexpr double kRowNs = 3.0;
constexpr double kCopyNsPerByte = 0.05;

// Rows [begin, end): the first bad row under kError (then it stops), else -1. The rows of one
// params batch are one run of cpu/row_gather.hpp's copy.
template <class Index>
std::int64_t gather_rows(const kernels::ScatterGeometry& geometry, const Index* indices,
                         const RowCopy& copy, const std::uint8_t* params, std::uint8_t* out,
                         std::int64_t rows_per_batch, std::int64_t batch_bytes, bool error_policy,
                         std::int64_t begin, std::int64_t end) {
  const std::int64_t depth = geometry.depth;
  std::int64_t row = begin;
  while (row < end) {
    const std::int64_t batch = rows_per_batch > 0 ? row / rows_per_batch : 0;
    const std::int64_t run_end =
        rows_per_batch > 0 ? std::min(end, (batch + 1) * rows_per_batch) : end;
    const Index* run = indices + row * depth;
    std::uint8_t* target = out + row * copy.row_bytes;
    const std::uint8_t* table = params + batch * batch_bytes;
    if (depth == 1) {  // the common case, by value: nothing reloaded per row
      const auto bound = static_cast<std::uint64_t>(geometry.dims[0]);
      row += copy_rows(
          copy, table, target, run_end - row, [run, bound](std::int64_t i, std::int64_t* at) {
            const auto v = static_cast<std::uint64_t>(static_cast<std::int64_t>(run[i]));
            *at = static_cast<std::int64_t>(v);
            return v < bound;
          });
    } else {
      row += copy_rows(copy, table, target, run_end - row,
                       [&geometry, run, depth](std::int64_t i, std::int64_t* at) {
                         return geometry.slice_of(run + i * depth, at);
                       });
    }
    if (row < run_end) {
      if (error_policy) return row;
      std::memset(out + row * copy.row_bytes, 0, static_cast<std::size_t>(copy.row_bytes));
      ++row;
    }
  }
  return -1;
}

template <class Index>
core::GatherNdResult gather_typed(const core::GatherNdPlan& plan,
                                  const core::GatherNdBuffers& buffers) {
  core::GatherNdResult result;
  const std::int64_t n = plan.num_rows;
  if (n == 0) return result;
  const auto* indices = static_cast<const Index*>(buffers.indices);
  const bool error_policy = plan.policy == OutOfBoundsPolicy::kError;
  const auto row_bytes = plan.slice_size * static_cast<std::int64_t>(plan.element_size);
  if (row_bytes == 0 && !error_policy) return result;  // nothing to move, nothing to check

  kernels::ScatterGeometry geometry = kernels::make_geometry(
      plan.depth, plan.slice_size, plan.index_bounds.data(), plan.slice_strides.data());
  std::vector<std::int64_t> table;  // depth > kInlineDepth: bounds, then strides
  if (plan.depth > kernels::kInlineDepth) {
    table.assign(plan.index_bounds.begin(), plan.index_bounds.end());
    table.insert(table.end(), plan.slice_strides.begin(), plan.slice_strides.end());
    geometry.external = table.data();
  }
  std::int64_t params_elements = 1;
  for (const std::int64_t d : plan.params_dims) params_elements *= d;
  const std::int64_t params_bytes = params_elements * static_cast<std::int64_t>(plan.element_size);
  const auto* params = static_cast<const std::uint8_t*>(buffers.params);
  auto* out = static_cast<std::uint8_t*>(buffers.out);
  const RowCopy copy = plan_row_copy(row_bytes, params_bytes, out, n * row_bytes);
  const std::int64_t rows_per_batch = plan.batch_dims > 0 ? plan.rows_per_batch : 0;
  const std::int64_t batch_bytes = plan.slices_per_batch * row_bytes;
  auto rows = [&](std::int64_t begin, std::int64_t end) {
    return gather_rows(geometry, indices, copy, params, out, rows_per_batch, batch_bytes,
                       error_policy, begin, end);
  };

  const std::int64_t min_rows =
      core::min_chunk_for(kRowNs + kCopyNsPerByte * static_cast<double>(row_bytes));
  const int chunks = core::chunk_count(n, min_rows);
  std::int64_t bad = -1;
  if (chunks <= 1) {
    bad = rows(0, n);
  } else {
    std::vector<std::int64_t> first_bad(static_cast<std::size_t>(chunks), -1);
    core::parallel_for_chunks(n, min_rows, [&](int c, std::int64_t begin, std::int64_t end) {
      first_bad[static_cast<std::size_t>(c)] = rows(begin, end);
    });
    for (const std::int64_t row : first_bad) {
      if (row >= 0) {
        bad = row;  // chunks are in row order
        break;
      }
    }
  }
  if (bad >= 0) {
    result.first_bad_index = bad;
    for (int d = 0; d < plan.depth; ++d) {
      result.bad_components.push_back(static_cast<std::int64_t>(indices[bad * plan.depth + d]));
    }
  }
  return result;
}

}  // namespace

core::GatherNdResult gather_nd(const core::GatherNdPlan& plan,
                               const core::GatherNdBuffers& buffers) {
  return core::dispatch_index_type(plan.index_dtype, [&](auto tag) {
    using Index = typename decltype(tag)::type;
    return gather_typed<Index>(plan, buffers);
  });
}

}  // namespace tensorbuf::cpu
