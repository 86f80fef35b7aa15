// The CPU backend of gather_elements: under kError the indices are checked first
// (axis_index_check.hpp), then the output's positions are filled in contiguous chunks on the
// pool, an element each (moved as an unsigned word of its size); under kDrop a bad index's
// element is zero.
#include <cstdint>

#include "core/dtype_dispatch.hpp"
#include "core/elements_backends.hpp"
#include "core/parallel.hpp"
#include "cpu/axis_index_check.hpp"
#include "cpu/elements_geometry.hpp"

namespace tensorbuf::cpu {
namespace {

// Cost of one position on one core (index load and wrap, a division per merged dim, a random
// read), for the pool's policy.
constexpr double kPositionNs = 4.0;

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
  const HostElementsGeometry host_geometry(plan.layout);
  const kernels::ElementsGeometry& geometry = host_geometry.get();
  const auto* params = static_cast<const Word*>(buffers.params);
  auto* out = static_cast<Word*>(buffers.out);
  core::parallel_for(n, core::min_chunk_for(kPositionNs), [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t p = begin; p < end; ++p) {
      std::int64_t source = 0;
      out[p] = geometry.target_of(p, indices[p], &source) ? params[source] : Word{};
    }
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
