// The CPU backend of gather: under kError the indices are checked first (axis_index_check.hpp),
// then the output's rows (I elements each) are copied in contiguous chunks on the pool
// (cpu/row_gather.hpp); under kDrop a bad index's row is zeros.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/dtype_dispatch.hpp"
#include "core/gather_backends.hpp"
#include "core/parallel.hpp"
#include "cpu/axis_index_check.hpp"
#include "cpu/row_gather.hpp"
#include "kernels/axis_index.hpp"

namespace tensorbuf::cpu {
namespace {

// Costs on one core for the pool's policy (core::min_chunk_for): a row's index wrap and copy
// call, and each byte it copies.
constexpr double kRowNs = 3.0;
constexpr double kCopyNsPerByte = 0.05;

template <class Index>
core::AxisIndexResult gather_typed(const core::GatherPlan& plan,
                                   const core::GatherBuffers& buffers) {
  if (plan.num_indices == 0) return {};
  const auto* indices = static_cast<const Index*>(buffers.indices);
  if (plan.policy == OutOfBoundsPolicy::kError) {
    core::AxisIndexResult checked = check_axis_indices(indices, plan.num_indices, plan.axis_size);
    if (!checked.applied()) return checked;
  }
  const auto row_bytes = plan.inner * static_cast<std::int64_t>(plan.element_size);
  const std::int64_t n_count = plan.indices_per_batch;
  const std::int64_t rows = plan.batches * plan.outer * n_count;
  if (rows == 0 || row_bytes == 0) return {};
  const auto* params = static_cast<const std::uint8_t*>(buffers.params);
  auto* out = static_cast<std::uint8_t*>(buffers.out);
  const std::int64_t s = plan.axis_size;
  const std::int64_t outer = plan.outer;

  const RowCopy copy =
      plan_row_copy(row_bytes, plan.batches * outer * s * row_bytes, out, rows * row_bytes);

  // Rows [begin, end): row = q * N + n, q = batch * O + o (B = 1 without batch dims); the rows
  // of one q read one table of s rows through one run of indices.
  auto gather_range = [&](std::int64_t begin, std::int64_t end) {
    std::int64_t row = begin;
    while (row < end) {
      const std::int64_t q = row / n_count;
      const std::int64_t n = row - q * n_count;
      const std::int64_t run_end = std::min(end, (q + 1) * n_count);
      const Index* run = indices + (q / outer) * n_count + n;
      const std::int64_t stop =
          cpu::copy_rows(copy, params + q * s * row_bytes, out + row * row_bytes, run_end - row,
                         [run, s](std::int64_t i, std::int64_t* at) {
                           return kernels::wrap_axis_index(run[i], s, at);
                         });
      row += stop;
      if (row < run_end) {  // kDrop: a bad index's row is zeros
        std::memset(out + row * row_bytes, 0, static_cast<std::size_t>(row_bytes));
        ++row;
      }
    }
  };
  const std::int64_t min_rows =
      core::min_chunk_for(kRowNs + kCopyNsPerByte * static_cast<double>(row_bytes));
  core::parallel_for(rows, min_rows, gather_range);
  return {};
}

}  // namespace

core::AxisIndexResult gather(const core::GatherPlan& plan, const core::GatherBuffers& buffers) {
  return core::dispatch_index_type(plan.index_dtype, [&](auto tag) {
    using Index = typename decltype(tag)::type;
    return gather_typed<Index>(plan, buffers);
  });
}

}  // namespace tensorbuf::cpu
