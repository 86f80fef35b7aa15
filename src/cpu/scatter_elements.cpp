// The CPU backend of scatter_elements: kError checks the indices before anything is written.
// A tensor beyond the last-level cache takes the bucketed path (scatter_elements_buckets.hpp,
// which checks as it buckets); otherwise the indices are checked (axis_index_check.hpp, or
// axis_index_wrap.hpp into narrow indices for the walk), out = tensor (unless in place) and the
// positions applied directly by lanes (scatter_elements_lanes.hpp), with prefetches where the
// tensor is beyond the L2 caches.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

#include "core/dtype_dispatch.hpp"
#include "core/elements_backends.hpp"
#include "core/parallel.hpp"
#include "cpu/axis_index_check.hpp"
#include "cpu/axis_index_wrap.hpp"
#include "cpu/buckets.hpp"
#include "cpu/scatter_elements_buckets.hpp"
#include "cpu/scatter_elements_lanes.hpp"
#include "cpu/scatter_elements_tuning.hpp"

namespace tensorbuf::cpu {
namespace {

// Beyond this the tensor leaves the L2 caches: the direct path prefetches its targets this
// many positions ahead (on the [64K, 64] f32 add 32 / 64 / 128: 1.6 / 1.3 / 1x the time), and
// further ahead beyond the second size (256 there: 0.93x at 8-16 MiB, 1.15-1.2x at 2 MiB).
constexpr std::int64_t kPrefetchTensorBytes = std::int64_t{1} << 20;
constexpr std::int64_t kPrefetchPositions = 128;
constexpr std::int64_t kFarPrefetchTensorBytes = std::int64_t{8} << 20;
constexpr std::int64_t kFarPrefetchPositions = 256;

// The direct path's prefetch distance for a tensor of `bytes` (0: none).
std::int64_t prefetch_positions(std::int64_t bytes, int forced) {
  if (forced == 0 || (forced < 0 && bytes <= kPrefetchTensorBytes)) return 0;
  return bytes >= kFarPrefetchTensorBytes ? kFarPrefetchPositions : kPrefetchPositions;
}

// How the positions are applied: the bucketed path forced (tests) with its shape, and the
// direct path's switches.
struct Bucketing {
  bool forced = false;
  int threads = 0;  // 0: the pool's thread count
  std::int64_t block_bytes = buckets::kBlockBytes;
  std::int64_t tile_positions = 0;  // 0: scatter_elements_buckets::tile_positions
  ScatterElementsTuning tuning{};
};

// The direct path's walk over indices checked and wrapped into Small, when the axis fits it.
template <core::ScatterOp Op, class T, class Index, class Small>
bool try_wrapped(const core::ScatterElementsPlan& plan, const core::ScatterElementsBuffers& buffers,
                 std::int64_t prefetch, core::AxisIndexResult* result) {
  const std::int64_t n = plan.layout.num_positions;
  const std::int64_t axis_size = plan.layout.axis_size;
  if (axis_size - 1 > static_cast<std::int64_t>(std::numeric_limits<Small>::max())) return false;
  const buckets::Scratch scratch(static_cast<std::size_t>(n) * sizeof(Small));
  auto* wrapped = static_cast<Small*>(scratch.data());
  *result = check_and_wrap_axis_indices(static_cast<const Index*>(buffers.indices), n, axis_size,
                                        wrapped);
  if (!result->applied()) return true;
  auto* out = static_cast<T*>(buffers.out);
  if (buffers.out != buffers.tensor && plan.num_elements > 0) {
    std::memcpy(out, buffers.tensor, static_cast<std::size_t>(plan.num_elements) * sizeof(T));
  }
  scatter_elements_lanes::run<Op, T>(plan.layout,
                                     scatter_elements_lanes::WrappedIndices<Small>{wrapped},
                                     static_cast<const T*>(buffers.updates), out, prefetch);
  return true;
}

template <core::ScatterOp Op, class T, class Index>
core::AxisIndexResult scatter_typed(const core::ScatterElementsPlan& plan,
                                    const core::ScatterElementsBuffers& buffers,
                                    const Bucketing& bucketing) {
  const core::ElementsLayout& layout = plan.layout;
  const std::int64_t n = layout.num_positions;
  const auto* indices = static_cast<const Index*>(buffers.indices);
  auto* out = static_cast<T*>(buffers.out);
  const bool check = plan.policy == OutOfBoundsPolicy::kError;
  const ScatterElementsTuning& tuning = bucketing.tuning;
  const bool bucketed = bucketing.forced || tuning.bucketed == 1 ||
                        (tuning.bucketed < 0 && scatter_elements_buckets::applies(plan, sizeof(T)));
  if (n > 0 && bucketed) {
    // The bucketed path checks the indices as it reads them.
    const int threads = bucketing.threads > 0 ? bucketing.threads : core::cpu_thread_count();
    return scatter_elements_buckets::run<Op, T, Index>(
        plan, buffers, threads, bucketing.block_bytes, bucketing.tile_positions, check);
  }
  const std::int64_t bytes = plan.num_elements * static_cast<std::int64_t>(sizeof(T));
  const std::int64_t prefetch = prefetch_positions(bytes, tuning.prefetch);
  // Narrow indices pay for their writes at every size: the walk then reads 2 or 4 bytes per
  // position and wraps nothing (0.74-0.78x the time of the check and the walk over the int64
  // indices on the 16 MiB add). Not under kDrop: a wrap pass that marks bad indices took
  // 1.09-1.13x the walk that wraps and drops as it goes (1.4x at 256 KiB).
  if (check && n > 0 && tuning.wrapped != 0) {
    core::AxisIndexResult result;
    if (try_wrapped<Op, T, Index, std::uint16_t>(plan, buffers, prefetch, &result)) return result;
    if (sizeof(Index) > sizeof(std::uint32_t) &&
        try_wrapped<Op, T, Index, std::uint32_t>(plan, buffers, prefetch, &result)) {
      return result;
    }
  }
  if (check && n > 0) {
    core::AxisIndexResult checked = check_axis_indices(indices, n, layout.axis_size);
    if (!checked.applied()) return checked;
  }
  if (buffers.out != buffers.tensor && plan.num_elements > 0) {
    std::memcpy(out, buffers.tensor, static_cast<std::size_t>(plan.num_elements) * sizeof(T));
  }
  if (n == 0) return {};
  scatter_elements_lanes::run<Op, T>(
      layout, scatter_elements_lanes::RawIndices<Index>{indices, layout.axis_size},
      static_cast<const T*>(buffers.updates), out, prefetch);
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
  return scatter_with(plan, buffers, Bucketing{true, threads, block_bytes, 0, {}});
}

core::AxisIndexResult scatter_elements_tiled(const core::ScatterElementsPlan& plan,
                                             const core::ScatterElementsBuffers& buffers,
                                             int threads, std::int64_t block_bytes,
                                             std::int64_t tile_positions) {
  return scatter_with(plan, buffers, Bucketing{true, threads, block_bytes, tile_positions, {}});
}

core::AxisIndexResult scatter_elements_tuned(const core::ScatterElementsPlan& plan,
                                             const core::ScatterElementsBuffers& buffers,
                                             const ScatterElementsTuning& tuning) {
  Bucketing bucketing;
  bucketing.tuning = tuning;
  return scatter_with(plan, buffers, bucketing);
}

}  // namespace tensorbuf::cpu
