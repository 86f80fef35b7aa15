// The CPU backend of gather_nd: rows in contiguous chunks on the pool (core::parallel_for_chunks);
// each row's slice is checked (nd_rows.hpp's mapping, the scatter ops' bounds check) and copied
// with one memcpy, of a fixed size for the common row sizes. kError: a chunk stops at its first
// bad row, and the first chunk that found one names it (chunks are in row order), so the row is
// the smallest whatever the thread count; the output is then discarded. kDrop: a bad row's
// slice is zeros.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/dtype_dispatch.hpp"
#include "core/gather_nd_backends.hpp"
#include "core/parallel.hpp"
#include "cpu/prefetch.hpp"
#include "kernels/nd_rows.hpp"

namespace tensorbuf::cpu {
namespace {

// Costs on one core for the pool's policy (core::min_chunk_for): a row's index check and copy
// call, and each byte it copies.
constexpr double kRowNs = 3.0;
constexpr double kCopyNsPerByte = 0.05;

// Random rows of params beyond the caches are read at memory latency: the row kAheadRows ahead
// is prefetched (its first kPrefetchBytes), so that many reads are in flight at once.
constexpr std::int64_t kPrefetchParamsBytes = std::int64_t{8} << 20;
constexpr std::int64_t kAheadRows = 16;
constexpr std::int64_t kPrefetchBytes = 512;

struct RowLayout {
  const std::uint8_t* params;
  std::uint8_t* out;
  std::int64_t row_bytes;
  std::int64_t rows_per_batch;  // R
  std::int64_t batch_bytes;     // bytes per params batch
  bool prefetch;                // params beyond kPrefetchParamsBytes
};

// Prefetches the slice row `row` reads (nothing for a bad row).
template <class Index>
void prefetch_row(const kernels::ScatterGeometry& geometry, const Index* indices,
                  const RowLayout& layout, std::int64_t row) {
  std::int64_t slice = 0;
  if (!geometry.slice_of(indices + row * geometry.depth, &slice)) return;
  const std::int64_t batch = layout.rows_per_batch > 0 ? row / layout.rows_per_batch : 0;
  const std::int64_t offset = batch * layout.batch_bytes + slice * layout.row_bytes;
  const std::int64_t bytes = std::min(layout.row_bytes, kPrefetchBytes);
  for (std::int64_t at = 0; at < bytes; at += 64) prefetch_at(layout.params, offset + at);
}

// Rows [begin, end): the first bad row under kError (then it stops), else -1. `copy(to, from)`
// moves one row's bytes.
template <class Index, class Copy>
std::int64_t gather_rows(const kernels::ScatterGeometry& geometry, const Index* indices,
                         const RowLayout& layout, bool error_policy, std::int64_t begin,
                         std::int64_t end, Copy copy) {
  const std::int64_t r_count = layout.rows_per_batch;
  std::int64_t batch = r_count > 0 ? begin / r_count : 0;
  std::int64_t r = r_count > 0 ? begin - batch * r_count : 0;
  const std::uint8_t* batch_params = layout.params + batch * layout.batch_bytes;
  for (std::int64_t row = begin; row < end; ++row) {
    if (layout.prefetch && row + kAheadRows < end) {
      prefetch_row(geometry, indices, layout, row + kAheadRows);
    }
    std::int64_t slice = 0;
    std::uint8_t* target = layout.out + row * layout.row_bytes;
    if (geometry.slice_of(indices + row * geometry.depth, &slice)) {
      copy(target, batch_params + slice * layout.row_bytes);
    } else if (error_policy) {
      return row;
    } else {
      std::memset(target, 0, static_cast<std::size_t>(layout.row_bytes));
    }
    if (++r == r_count) {
      r = 0;
      batch_params += layout.batch_bytes;
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
  const RowLayout layout{static_cast<const std::uint8_t*>(buffers.params),
                         static_cast<std::uint8_t*>(buffers.out),
                         row_bytes,
                         plan.batch_dims > 0 ? plan.rows_per_batch : 0,
                         plan.slices_per_batch * row_bytes,
                         params_bytes >= kPrefetchParamsBytes};

  auto rows = [&](std::int64_t begin, std::int64_t end) -> std::int64_t {
    auto run = [&](auto copy) {
      return gather_rows(geometry, indices, layout, error_policy, begin, end, copy);
    };
    // Fixed sizes let the compiler inline the copy (a call per row costs more than 64 bytes).
    auto fixed = [&](auto bytes) {
      return run([](std::uint8_t* to, const std::uint8_t* from) {
        std::memcpy(to, from, decltype(bytes)::value);
      });
    };
    using std::integral_constant;
    switch (row_bytes) {
      case 0:
        return run([](std::uint8_t*, const std::uint8_t*) {});
      case 1:
        return fixed(integral_constant<std::size_t, 1>{});
      case 2:
        return fixed(integral_constant<std::size_t, 2>{});
      case 4:
        return fixed(integral_constant<std::size_t, 4>{});
      case 8:
        return fixed(integral_constant<std::size_t, 8>{});
      case 16:
        return fixed(integral_constant<std::size_t, 16>{});
      case 32:
        return fixed(integral_constant<std::size_t, 32>{});
      case 64:
        return fixed(integral_constant<std::size_t, 64>{});
      case 128:
        return fixed(integral_constant<std::size_t, 128>{});
      case 256:
        return fixed(integral_constant<std::size_t, 256>{});
      default:
        return run([row_bytes](std::uint8_t* to, const std::uint8_t* from) {
          std::memcpy(to, from, static_cast<std::size_t>(row_bytes));
        });
    }
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
