// The CPU backend of gather_elements: under kError the indices are checked first
// (axis_index_check.hpp), then the output's positions are filled in contiguous chunks on the
// pool, a row of the last merged dim at a time, an element each (moved as an unsigned word of
// its size); under kDrop a bad index's element is zero.
#include <cstdint>

#include "core/dtype_dispatch.hpp"
#include "core/elements_backends.hpp"
#include "core/parallel.hpp"
#include "cpu/axis_index_check.hpp"
#include "cpu/elements_geometry.hpp"
#include "kernels/axis_index.hpp"

namespace tensorbuf::cpu {
namespace {

// Cost of one position on one core (index load and wrap, a random read), for the pool's policy.
constexpr double kPositionNs = 2.0;

template <class Index, class Word>
core::AxisIndexResult gather_typed(const core::GatherElementsPlan& plan,
                                   const core::GatherElementsBuffers& buffers) {
  const std::int64_t n = plan.layout.num_positions;
  if (n == 0) return {};
  const auto* indices = static_cast<const Index*>(buffers.indices);
  if (plan.policy == OutOfBoundsPolicy::kError) {
    core::AxisIndexResult checked = check_axis_indices(indices, n, plan.layout.axis_size);
    if (!checked.applied()) return checked;
  }
  const HostElementsGeometry geometry(plan.layout);
  const std::int64_t axis_size = plan.layout.axis_size;
  const std::int64_t axis_stride = plan.layout.axis_stride;
  const auto* params = static_cast<const Word*>(buffers.params);
  auto* out = static_cast<Word*>(buffers.out);
  core::parallel_for(
      n, core::min_chunk_for(kPositionNs), [&](std::int64_t begin, std::int64_t end) {
        geometry.for_each_row(
            begin, end,
            [&](std::int64_t first, std::int64_t count, std::int64_t base, std::int64_t stride) {
              for (std::int64_t k = 0; k < count; ++k) {
                std::int64_t index = 0;
                out[first + k] = kernels::wrap_axis_index(indices[first + k], axis_size, &index)
                                     ? params[base + k * stride + index * axis_stride]
                                     : Word{};
              }
            });
      });
  return {};
}

}  // namespace

core::AxisIndexResult gather_elements(const core::GatherElementsPlan& plan,
                                      const core::GatherElementsBuffers& buffers) {
  return core::dispatch_index_type(plan.index_dtype, [&](auto tag) {
    using Index = typename decltype(tag)::type;
    switch (plan.element_size) {
      case 1:
        return gather_typed<Index, std::uint8_t>(plan, buffers);
      case 2:
        return gather_typed<Index, std::uint16_t>(plan, buffers);
      case 4:
        return gather_typed<Index, std::uint32_t>(plan, buffers);
      default:
        return gather_typed<Index, std::uint64_t>(plan, buffers);
    }
  });
}

}  // namespace tensorbuf::cpu
