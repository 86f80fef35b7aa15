// The CPU backend of scatter_elements: kError checks the indices before anything is written. A
// tensor beyond the caches takes the bucketed path (scatter_elements_buckets.hpp, which checks
// as it buckets); otherwise axis_index_check.hpp checks, out = tensor (unless in place) and the
// positions are applied directly. Positions that share a target differ only along the axis (q = p
// with q[axis] replaced), so the lanes across the axis, (o, i) with p = (o * A + a) * In + i, run
// in contiguous chunks on the pool, each chunk walking a = 0..A-1 in order for a block of lanes at
// a time: lanes have disjoint targets, so every target sees its updates in row-major order (kNone:
// the last wins), whatever the thread count.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/dtype_dispatch.hpp"
#include "core/elements_backends.hpp"
#include "core/parallel.hpp"
#include "cpu/axis_index_check.hpp"
#include "cpu/elements_geometry.hpp"
#include "cpu/scatter_elements_buckets.hpp"
#include "kernels/axis_index.hpp"
#include "kernels/scatter_nd_combine.hpp"

namespace tensorbuf::cpu {
namespace {

// Cost of one position on one core (index wrap, a combine at a random address), for the pool's
// policy.
constexpr double kPositionNs = 3.0;
// Lanes walked together along the axis: their first positions and bases stay in L1.
constexpr std::int64_t kLaneBlock = 256;

// How the positions are applied: bucketed when forced (tests) or when the tensor is beyond the
// caches (scatter_elements_buckets::applies).
struct Bucketing {
  bool forced = false;
  int threads = 0;  // 0: the pool's thread count
  std::int64_t block_bytes = buckets::kBlockBytes;
  std::int64_t tile_positions = 0;  // 0: scatter_elements_buckets::tile_positions
};

template <core::ScatterOp Op, class T, class Index>
core::AxisIndexResult scatter_typed(const core::ScatterElementsPlan& plan,
                                    const core::ScatterElementsBuffers& buffers,
                                    const Bucketing& bucketing) {
  const core::ElementsLayout& layout = plan.layout;
  const std::int64_t n = layout.num_positions;
  const auto* indices = static_cast<const Index*>(buffers.indices);
  const auto* updates = static_cast<const T*>(buffers.updates);
  auto* out = static_cast<T*>(buffers.out);
  const bool check = plan.policy == OutOfBoundsPolicy::kError;
  if (n > 0 && (bucketing.forced || scatter_elements_buckets::applies(plan, sizeof(T)))) {
    // The bucketed path checks the indices as it reads them.
    const int threads = bucketing.threads > 0 ? bucketing.threads : core::cpu_thread_count();
    return scatter_elements_buckets::run<Op, T, Index>(
        plan, buffers, threads, bucketing.block_bytes, bucketing.tile_positions, check);
  }
  if (check && n > 0) {
    core::AxisIndexResult checked = check_axis_indices(indices, n, layout.axis_size);
    if (!checked.applied()) return checked;
  }
  if (buffers.out != buffers.tensor && plan.num_elements > 0) {
    std::memcpy(out, buffers.tensor, static_cast<std::size_t>(plan.num_elements) * sizeof(T));
  }
  if (n == 0) return {};
  std::int64_t outer = 1;
  std::int64_t inner = 1;
  for (int d = 0; d < layout.indices_dims.rank(); ++d) {
    const std::int64_t dim = layout.indices_dims[static_cast<std::size_t>(d)];
    if (d < layout.axis) outer *= dim;
    if (d > layout.axis) inner *= dim;
  }
  const std::int64_t along = layout.indices_dims[static_cast<std::size_t>(layout.axis)];
  const HostElementsGeometry host_geometry(layout);
  const kernels::ElementsGeometry& geometry = host_geometry.get();
  const std::int64_t axis_size = layout.axis_size;
  const std::int64_t axis_stride = layout.axis_stride;
  const std::int64_t min_lanes = core::min_chunk_for(kPositionNs * static_cast<double>(along));
  core::parallel_for(outer * inner, min_lanes, [&](std::int64_t begin, std::int64_t end) {
    // A block of lanes: each lane's first position (a = 0) and its base, which does not depend
    // on a (the axis' stride is 0), so the walk along the axis divides once per lane.
    std::int64_t first[kLaneBlock];
    std::int64_t base[kLaneBlock];
    for (std::int64_t block = begin; block < end; block += kLaneBlock) {
      const std::int64_t lanes = std::min(kLaneBlock, end - block);
      std::int64_t o = block / inner;
      std::int64_t i = block - o * inner;
      for (std::int64_t k = 0; k < lanes; ++k) {
        first[k] = o * along * inner + i;
        base[k] = geometry.base_of(first[k]);
        if (++i == inner) {
          i = 0;
          ++o;
        }
      }
      for (std::int64_t a = 0; a < along; ++a) {
        const std::int64_t shift = a * inner;
        for (std::int64_t k = 0; k < lanes; ++k) {
          const std::int64_t p = first[k] + shift;
          std::int64_t index = 0;
          if (kernels::wrap_axis_index(indices[p], axis_size, &index)) {
            T& target = out[base[k] + index * axis_stride];
            target = kernels::Combine<Op>::apply(target, updates[p]);
          }
        }
      }
    }
  });
  return {};
}

template <core::ScatterOp Op>
core::AxisIndexResult scatter_op(const core::ScatterElementsPlan& plan,
                                 const core::ScatterElementsBuffers& buffers,
                                 const Bucketing& bucketing) {
  return core::dispatch_type(plan.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return core::dispatch_index_type(plan.index_dtype, [&](auto index_tag) {
      using Index = typename decltype(index_tag)::type;
      return scatter_typed<Op, T, Index>(plan, buffers, bucketing);
    });
  });
}

core::AxisIndexResult scatter_with(const core::ScatterElementsPlan& plan,
                                   const core::ScatterElementsBuffers& buffers,
                                   const Bucketing& bucketing) {
  using core::ScatterOp;
  switch (plan.op) {
    case ScatterOp::kUpdate: return scatter_op<ScatterOp::kUpdate>(plan, buffers, bucketing);
    case ScatterOp::kAdd: return scatter_op<ScatterOp::kAdd>(plan, buffers, bucketing);
    case ScatterOp::kMul: return scatter_op<ScatterOp::kMul>(plan, buffers, bucketing);
    case ScatterOp::kMin: return scatter_op<ScatterOp::kMin>(plan, buffers, bucketing);
    case ScatterOp::kMax: return scatter_op<ScatterOp::kMax>(plan, buffers, bucketing);
    default: break;
  }
  throw InternalError("scatter_elements: unplanned reduction");
}

}  // namespace

core::AxisIndexResult scatter_elements(const core::ScatterElementsPlan& plan,
                                       const core::ScatterElementsBuffers& buffers) {
  return scatter_with(plan, buffers, Bucketing{});
}

core::AxisIndexResult scatter_elements_bucketed(const core::ScatterElementsPlan& plan,
                                                const core::ScatterElementsBuffers& buffers,
                                                int threads, std::int64_t block_bytes) {
  return scatter_with(plan, buffers, Bucketing{true, threads, block_bytes, 0});
}

core::AxisIndexResult scatter_elements_tiled(const core::ScatterElementsPlan& plan,
                                             const core::ScatterElementsBuffers& buffers,
                                             int threads, std::int64_t block_bytes,
                                             std::int64_t tile_positions) {
  return scatter_with(plan, buffers, Bucketing{true, threads, block_bytes, tile_positions});
}

}  // namespace tensorbuf::cpu
