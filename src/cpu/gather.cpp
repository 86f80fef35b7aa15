// The CPU backend of gather: under kError the indices are checked first (axis_index_check.hpp),
// then the output's rows (I elements each) are copied in contiguous chunks on the pool, one
// memcpy per row; under kDrop a bad index's row is zeros.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/dtype_dispatch.hpp"
#include "core/gather_backends.hpp"
#include "core/parallel.hpp"
#include "cpu/axis_index_check.hpp"
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

  // Rows [begin, end): row = q * N + n, q = batch * O + o (B = 1 without batch dims).
  auto copy_rows = [&](std::int64_t begin, std::int64_t end) {
    std::int64_t q = begin / n_count;
    std::int64_t n = begin - q * n_count;
    std::int64_t batch = q / outer;
    std::int64_t o = q - batch * outer;
    for (std::int64_t row = begin; row < end; ++row) {
      std::uint8_t* target = out + row * row_bytes;
      std::int64_t index = 0;
      if (kernels::wrap_axis_index(indices[batch * n_count + n], s, &index)) {
        std::memcpy(target, params + (q * s + index) * row_bytes,
                    static_cast<std::size_t>(row_bytes));
      } else {
        std::memset(target, 0, static_cast<std::size_t>(row_bytes));  // kDrop
      }
      if (++n == n_count) {
        n = 0;
        ++q;
        if (++o == outer) {
          o = 0;
          ++batch;
        }
      }
    }
  };
  const std::int64_t min_rows =
      core::min_chunk_for(kRowNs + kCopyNsPerByte * static_cast<double>(row_bytes));
  core::parallel_for(rows, min_rows, copy_rows);
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
