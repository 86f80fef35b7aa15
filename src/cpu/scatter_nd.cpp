// CPU backend of the scatter ops. No atomics and no sorting: the output is cut into `owners`
// ranges -- of whole slices, or, when there are fewer slices than owners, of elements of every
// slice -- and each owner, on its own thread, walks all rows in order and applies those that
// land in its range. Every output element is written by one owner in row order, so duplicates
// apply in row order and the result does not depend on the thread count.
//  1. In place under kError the rows are checked first (cpu/scatter_nd_check.hpp) and nothing
//     is written when one is bad.
//  2. Owners, in parallel: copy the owner's range of `tensor` (out of place), then apply. Out of
//     place under kError they stop at the first bad row, and the op discards the output.
// One owner is the plain serial loop. Each further owner costs one more walk over the indices
// (streamed, cheap next to the random updates), so core::threads_for_work decides from the
// estimated cost of the updates and the copy against that walk. Where the table is beyond the
// last-level cache the rows are bucketed by output block instead (cpu/scatter_nd_buckets.hpp):
// `choose` compares the two estimates (docs/scatter_nd.md).
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "core/dtype_dispatch.hpp"
#include "core/isa.hpp"
#include "core/parallel.hpp"
#include "core/scatter_nd_backends.hpp"
#include "cpu/cpu_features.hpp"
#include "cpu/prefetch.hpp"
#include "cpu/scatter_nd_buckets.hpp"
#include "cpu/scatter_nd_check.hpp"
#include "cpu/scatter_nd_rows.hpp"
#include "cpu/scatter_nd_tuning.hpp"
#include "kernels/scatter_nd_combine.hpp"

namespace tensorbuf::cpu {
namespace {

using core::ScatterNdBuffers;
using core::ScatterNdPlan;
using core::ScatterNdResult;
using core::ScatterOp;
using kernels::ScatterGeometry;
using scatter_rows::apply_row;
using scatter_rows::bad_row;
using scatter_rows::host_geometry;
using scatter_rows::slice_of;

// Costs on one core (this VM, from `tensorbuf bench --sweep` with one thread): an owner's
// branch-free walk over one row it may skip, a row applied while its slice is in cache (the table
// fits in kCachedBytes), in the last-level cache (up to kLastLevelBytes: a sole owner
// measures 3.4-3.6 ns there), or beyond, plus per element.
constexpr double kOwnerWalkNsPerRow = 1.5;
constexpr double kCachedRowNs = 1.5;
constexpr double kLastLevelRowNs = 3.5;
constexpr double kMissedRowNs = 12.0;
constexpr double kElementNs = 0.25;
constexpr double kCopyNsPerByte = 0.05;
// A table within the private L2 copies ~5x faster (memcpy here: 0.010 ns per copied byte at
// 256 KiB, 0.021 at 1 MiB, 0.04-0.07 from 16 MiB); the flat rate made 2^14 slice updates out
// of place (a 256 KiB table) take two owners where one is as fast and has no pool wait.
constexpr double kCachedCopyNsPerByte = 0.01;
constexpr double kCachedBytes = 8 << 20;
constexpr double kLastLevelBytes = 16 << 20;
// Beyond the private L2 (1 MiB here) a row's slice is a miss the walk can hide by prefetching
// it kPrefetchRows rows ahead; within it the prefetch is only extra work (elements at 2^10 and
// 2^12 in cache: 1.24x and 1.37x the time with it; slices in place at 2^18, beyond: 0.6-0.8x;
// docs/scatter_nd.md).
constexpr std::int64_t kPrefetchTableBytes = std::int64_t{1} << 20;
constexpr std::int64_t kPrefetchRows = 16;

double copy_ns_per_byte(double table_bytes) {
  return table_bytes <= static_cast<double>(kPrefetchTableBytes) ? kCachedCopyNsPerByte
                                                                  : kCopyNsPerByte;
}

double row_ns(double table_bytes) {
  if (table_bytes <= kCachedBytes) return kCachedRowNs;
  return table_bytes <= kLastLevelBytes ? kLastLevelRowNs : kMissedRowNs;
}

// What one owner writes: slices [first_slice, first_slice + slices), elements
// [first_element, first_element + elements) of each.
struct Range {
  std::int64_t first_slice = 0;
  std::int64_t slices = 0;
  std::int64_t first_element = 0;
  std::int64_t elements = 0;
};

Range owner_range(const ScatterNdPlan& plan, int owners, int owner) {
  auto split = [&](std::int64_t total, std::int64_t align, std::int64_t* first,
                   std::int64_t* count) {
    const std::int64_t units = total / align + (total % align != 0 ? 1 : 0);  // no overflow
    const std::int64_t begin =
        units / owners * owner + std::min<std::int64_t>(owner, units % owners);
    const std::int64_t end = begin + units / owners + (owner < units % owners ? 1 : 0);
    // units * align may pass int64 near its limit (a huge total, align > 1): clamp to total.
    auto offset = [&](std::int64_t unit) {
      std::int64_t out = 0;
      return __builtin_mul_overflow(unit, align, &out) ? total : std::min(total, out);
    };
    *first = offset(begin);
    *count = offset(end) - *first;
  };
  Range range;
  if (plan.num_slices >= owners) {
    split(plan.num_slices, 1, &range.first_slice, &range.slices);
    range.elements = plan.slice_size;
  } else {  // few large slices: each owner takes whole cache lines of every slice
    range.slices = plan.num_slices;
    split(plan.slice_size, 16, &range.first_element, &range.elements);
  }
  return range;
}

// What an owner's walk saw: when told to stop at a bad row (kError out of place: the op discards
// the output then), the first; bad rows are skipped otherwise.
struct Walk {
  std::int64_t first_bad = -1;
};

// How an owner walks: alone (applying each row as it goes) or as one of several, whether it
// stops at the first bad row, whether it prefetches slices ahead.
struct WalkMode {
  bool sole = true;
  bool stop_at_bad = false;
  bool prefetch = false;
  bool avx512 = false;  // the CPU has AVX-512 (cpu_features: off in the tests' portable runs)
};

// One owner: every row in order, those whose slice is in `range` applied. The sole owner
// applies each row as it goes. One of several would
// mispredict its "is this row mine" branch on every other random row, so it first lists its
// rows of a block of 256 without a branch, then applies the list.
template <ScatterOp Op, bool kDepth1, bool kOneElement, class T, class Index>
Walk apply_rows(const ScatterNdPlan& plan, const ScatterGeometry& shared_geometry,
                const Index* indices, const T* updates, T* out, const Range& range,
                const WalkMode mode) {
  // Locals, not loads through plan, geometry and range on every row (the writes to `out` could
  // alias them as far as the compiler knows).
  const ScatterGeometry geometry = shared_geometry;
  const std::int64_t s = plan.slice_size;
  const std::int64_t first_element = range.first_element;
  const std::int64_t elements = range.elements;
  const std::int64_t rows_total = plan.num_rows;
  auto apply = [=](std::int64_t row, std::int64_t slice) {
    if constexpr (kOneElement) {
      out[slice] = kernels::Combine<Op>::apply(out[slice], updates[row]);
    } else {
      apply_row<Op>(out + slice * s + first_element, updates + row * s + first_element, elements);
    }
  };
  auto prefetch = [=](std::int64_t slice) {
    prefetch_at(out, (slice * s + first_element) * static_cast<std::int64_t>(sizeof(T)));
  };
  Walk walk;
  if (mode.sole) {
    // false: stop (the first bad row under stop_at_bad).
    auto visit = [&](std::int64_t row) {
      std::int64_t slice = 0;
      if (slice_of<kDepth1>(plan, geometry, indices, row, &slice)) {
        apply(row, slice);
      } else if (mode.stop_at_bad) {
        walk.first_bad = row;
        return false;
      }
      return true;
    };
    std::int64_t row = 0;
    if (mode.prefetch) {
      for (; row + kPrefetchRows < rows_total; ++row) {
        std::int64_t ahead = 0;
        if (slice_of<kDepth1>(plan, geometry, indices, row + kPrefetchRows, &ahead)) {
          prefetch(ahead);
        }
        if (!visit(row)) return walk;
      }
    }
    for (; row < rows_total; ++row) {
      if (!visit(row)) return walk;
    }
    return walk;
  }
  constexpr std::int64_t kBlock = 256;
  std::int64_t rows[kBlock];
  std::int64_t slices[kBlock];
  const auto first = static_cast<std::uint64_t>(range.first_slice);
  const auto count = static_cast<std::uint64_t>(range.slices);
  for (std::int64_t begin = 0; begin < plan.num_rows; begin += kBlock) {
    const std::int64_t end = std::min(plan.num_rows, begin + kBlock);
    std::int64_t listed = 0;
    for (std::int64_t row = begin; row < end; ++row) {
      std::int64_t slice = 0;
      const bool good = slice_of<kDepth1>(plan, geometry, indices, row, &slice);
      if (!good && mode.stop_at_bad) {
        walk.first_bad = row;
        return walk;
      }
      rows[listed] = row;
      slices[listed] = slice;
      listed += (good && static_cast<std::uint64_t>(slice) - first < count) ? 1 : 0;
    }
    for (std::int64_t k = 0; k < listed; ++k) {
      if (mode.prefetch && k + kPrefetchRows < listed) prefetch(slices[k + kPrefetchRows]);
      apply(rows[k], slices[k]);
    }
  }
  return walk;
}

// Rows of float or double under AVX-512: the same apply_rows, flattened into a function
// compiled for AVX-512, so that a row of 16 floats takes one vaddps / vmulps (add, sub, mul) or
// vminps, two mask compares and one blend (min / max, the NaN rule) where SSE2 takes four
// addps, or 7 operations per 4 floats.
template <ScatterOp Op, class T>
inline constexpr bool kAvx512Rows = std::is_floating_point_v<T>;

#if defined(TENSORBUF_ISA_X86_64)
template <ScatterOp Op, bool kDepth1, class T, class Index>
__attribute__((flatten, target("avx512f"))) Walk apply_rows_avx512(
    const ScatterNdPlan& plan, const ScatterGeometry& geometry, const Index* indices,
    const T* updates, T* out, const Range& range, const WalkMode mode) {
  return apply_rows<Op, kDepth1, false>(plan, geometry, indices, updates, out, range, mode);
}
#endif

template <ScatterOp Op, class T, class Index>
Walk run_owner(const ScatterNdPlan& plan, const ScatterNdBuffers& buffers,
               const ScatterGeometry& geometry, const Range& range, const WalkMode& mode) {
  const auto* tensor = static_cast<const T*>(buffers.tensor);
  auto* out = static_cast<T*>(buffers.out);
  const std::int64_t s = plan.slice_size;
  if (range.elements == 0 && range.first_element > 0) return {};  // an owner with nothing
  if (buffers.out != buffers.tensor && range.slices > 0 && range.elements > 0) {
    if (range.elements == s) {
      std::memcpy(out + range.first_slice * s, tensor + range.first_slice * s,
                  static_cast<std::size_t>(range.slices * s) * sizeof(T));
    } else {
      for (std::int64_t k = range.first_slice; k < range.first_slice + range.slices; ++k) {
        std::memcpy(out + k * s + range.first_element, tensor + k * s + range.first_element,
                    static_cast<std::size_t>(range.elements) * sizeof(T));
      }
    }
  }
  const auto* indices = static_cast<const Index*>(buffers.indices);
  const auto* updates = static_cast<const T*>(buffers.updates);
#if defined(TENSORBUF_ISA_X86_64)
  if constexpr (kAvx512Rows<Op, T>) {
    if (mode.avx512 && s > 1) {
      return plan.depth == 1
                 ? apply_rows_avx512<Op, true>(plan, geometry, indices, updates, out, range, mode)
                 : apply_rows_avx512<Op, false>(plan, geometry, indices, updates, out, range, mode);
    }
  }
#endif
  if (plan.depth == 1) {
    return s == 1 ? apply_rows<Op, true, true>(plan, geometry, indices, updates, out, range, mode)
                  : apply_rows<Op, true, false>(plan, geometry, indices, updates, out, range, mode);
  }
  return s == 1 ? apply_rows<Op, false, true>(plan, geometry, indices, updates, out, range, mode)
                : apply_rows<Op, false, false>(plan, geometry, indices, updates, out, range, mode);
}

// The strategy and its threads, from the estimated costs in ns: owners (the updates and the
// copy shared between them, the walk over the rows paid by each) or, for slices that fit a
// block, buckets (every pass shared; worth it when the table is beyond the cache, where each
// owner's row costs a miss and a bucketed one does not).
struct Strategy {
  bool buckets = false;
  int threads = 1;
};

Strategy choose(const ScatterNdPlan& plan, bool copy, std::size_t element_bytes) {
  const double rows = static_cast<double>(plan.num_rows);
  const double table_bytes =
      static_cast<double>(plan.num_elements) * static_cast<double>(element_bytes);
  const double apply = rows * row_ns(table_bytes) +
                       rows * static_cast<double>(plan.slice_size) * kElementNs +
                       (copy ? 2 * table_bytes * copy_ns_per_byte(table_bytes) : 0.0);
  // Small work (most calls): one owner, without the estimates below.
  if (apply < core::kMinThreadWorkNs) return {false, 1};
  const double walk = rows * kOwnerWalkNsPerRow;
  const int owners = core::threads_for_work(apply, apply, walk);
  const double owners_ns = owners == 1 ? apply : apply / owners + walk + core::kRegionNs;
  // Only one-element slices are bucketed: an entry then carries its update value, where a
  // longer slice's entry names its row, which the apply pass reads at random (a miss per row
  // beyond the cache) while the owners read the updates in order. 16-float slices in place at
  // 2^22 / 2^24 updates: bucketed 1.2-2x the time of two owners (docs/scatter_nd.md).
  if (plan.slice_size != 1 || !scatter_buckets::applies(plan, element_bytes)) {
    return {false, owners};
  }
  const double bucketed = scatter_buckets::serial_ns(
      plan, copy, element_bytes, scatter_buckets::kBlockBytes, kElementNs, kCopyNsPerByte);
  const int threads = core::threads_for_work(bucketed, bucketed);
  // Three regions (count, fill, apply) where the owners have one; and, as for threads, a close
  // call goes to the simpler owners.
  const double bucketed_ns = threads == 1 ? bucketed : bucketed / threads + 3 * core::kRegionNs;
  return bucketed_ns <= core::kMinGain * owners_ns ? Strategy{true, threads}
                                                   : Strategy{false, owners};
}

template <ScatterOp Op, class T, class Index>
ScatterNdResult run(const ScatterNdPlan& plan, const ScatterNdBuffers& buffers,
                    const ScatterNdTuning& tuning) {
  std::vector<std::int64_t> table;
  const ScatterGeometry geometry = host_geometry(plan, table);
  const auto* indices = static_cast<const Index*>(buffers.indices);
  const bool copy = buffers.out != buffers.tensor;
  const bool empty = plan.num_elements == 0 || plan.slice_size == 0 || plan.num_slices == 0;
  Strategy strategy;
  if (tuning.bucket_bytes > 0 && scatter_buckets::applies(plan, sizeof(T), tuning.bucket_bytes)) {
    strategy = {true, core::cpu_thread_count()};
  } else if (!empty) {
    strategy = tuning.owners > 0 ? Strategy{false, tuning.owners} : choose(plan, copy, sizeof(T));
  }
  if (strategy.buckets) {  // checks every row before it writes anything
    return scatter_buckets::run<Op, T, Index>(
        plan, buffers, geometry, strategy.threads,
        tuning.bucket_bytes > 0 ? tuning.bucket_bytes : scatter_buckets::kBlockBytes);
  }
  // In place, kError checks every row before anything is written. Out of place the owners stop
  // at the first bad row instead (one pass fewer): the op then discards the output.
  WalkMode mode;
  mode.stop_at_bad = plan.policy == OutOfBoundsPolicy::kError && copy;
  mode.avx512 = cpu_features().code_paths().scatter_avx512;
  const std::int64_t l2_elements = kPrefetchTableBytes / static_cast<std::int64_t>(sizeof(T));
  mode.prefetch = tuning.prefetch >= 0 ? tuning.prefetch == 1 : plan.num_elements > l2_elements;
  if (plan.policy == OutOfBoundsPolicy::kError && !copy) {
    const std::int64_t bad = scatter_check::check_rows(plan, geometry, indices);
    if (bad >= 0) return bad_row(plan, indices, bad);
  }
  const int owners = strategy.threads;
  Walk first;  // every owner sees every row; the first always walks them
  if (owners == 1) {
    first = run_owner<Op, T, Index>(plan, buffers, geometry, owner_range(plan, 1, 0), mode);
  } else {
    mode.sole = false;
    core::parallel_for_chunks(owners, 1, [&](int, std::int64_t begin, std::int64_t end) {
      for (std::int64_t o = begin; o < end; ++o) {
        const Walk walk = run_owner<Op, T, Index>(
            plan, buffers, geometry, owner_range(plan, owners, static_cast<int>(o)), mode);
        if (o == 0) first = walk;
      }
    });
  }
  if (first.first_bad >= 0) return bad_row(plan, indices, first.first_bad);
  return ScatterNdResult{};
}

template <ScatterOp Op>
ScatterNdResult run_op(const ScatterNdPlan& plan, const ScatterNdBuffers& buffers,
                       const ScatterNdTuning& tuning) {
  return core::dispatch_type(plan.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return core::dispatch_index_type(plan.index_dtype, [&](auto index_tag) {
      using Index = typename decltype(index_tag)::type;
      return run<Op, T, Index>(plan, buffers, tuning);
    });
  });
}

}  // namespace

ScatterNdResult scatter_nd_tuned(const ScatterNdPlan& plan, const ScatterNdBuffers& buffers,
                                 const ScatterNdTuning& tuning) {
  switch (plan.op) {
#define TENSORBUF_SCATTER_CASE(name, op, what) \
  case ScatterOp::op:                            \
    return run_op<ScatterOp::op>(plan, buffers, tuning);
    TENSORBUF_SCATTER_COMBINES(TENSORBUF_SCATTER_CASE)
#undef TENSORBUF_SCATTER_CASE
  }
  throw InternalError("unknown scatter op");
}

ScatterNdResult scatter_nd(const ScatterNdPlan& plan, const ScatterNdBuffers& buffers) {
  return scatter_nd_tuned(plan, buffers, ScatterNdTuning{});
}

}  // namespace tensorbuf::cpu
