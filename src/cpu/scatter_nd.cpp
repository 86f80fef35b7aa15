// CPU backend of the scatter ops. No atomics: the output is cut into blocks of whole slices
// (or, for slices larger than a block, into parts of one slice) and each task owns one block,
// so duplicates apply in row order and results do not depend on the thread count.
//
//  1. rows, in parallel chunks: check each row and count the rows per block;
//  2. prefix sums give each (chunk, block) its place; the rows are bucketed by block, a
//     stable counting sort (a block's rows stay in row order);
//  3. tasks, in parallel: copy the block from `tensor` (out of place), then apply its rows.
// Under kError step 1 finds the first bad row (chunks are in row order) and nothing is written.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <vector>

#include "core/dtype_dispatch.hpp"
#include "core/parallel.hpp"
#include "core/scatter_nd_backends.hpp"
#include "cpu/scatter_nd_tuning.hpp"
#include "kernels/scatter_nd_combine.hpp"

namespace tensorbuf::cpu {
namespace {

using core::ScatterNdBuffers;
using core::ScatterNdPlan;
using core::ScatterNdResult;
using core::ScatterOp;
using kernels::ScatterGeometry;

constexpr std::int64_t kMinRowsPerChunk = 1 << 16;  // fewer: not worth waking the pool

// The bucket arrays are reused across calls: fresh pages cost a page fault each on first
// touch, which for large row counts costs more than the scatter itself. One cached block
// (kept up to kMaxCachedBytes); a call that finds it in use allocates its own.
constexpr std::size_t kMaxCachedBytes = std::size_t{1} << 30;

class ScratchCache {
 public:
  struct Block {
    std::unique_ptr<std::byte[]> data;
    std::size_t capacity = 0;
  };
  Block acquire(std::size_t bytes) {
    {
      std::lock_guard lock(mutex_);
      if (cached_.data && cached_.capacity >= bytes) return std::move(cached_);
    }
    Block block;
    block.data.reset(new std::byte[bytes]);
    block.capacity = bytes;
    return block;
  }
  void release(Block block) {
    if (block.capacity > kMaxCachedBytes) return;
    std::lock_guard lock(mutex_);
    if (!cached_.data || cached_.capacity < block.capacity) cached_ = std::move(block);
  }

 private:
  std::mutex mutex_;
  Block cached_;
};

ScratchCache& scratch_cache() {
  static ScratchCache cache;
  return cache;
}

ScatterGeometry host_geometry(const ScatterNdPlan& plan, std::vector<std::int64_t>& table) {
  ScatterGeometry geometry = kernels::make_geometry(plan);
  if (plan.depth > kernels::kInlineDepth) {
    table = plan.index_dims;
    table.insert(table.end(), plan.slice_strides.begin(), plan.slice_strides.end());
    geometry.external = table.data();
  }
  return geometry;
}

template <class Index>
ScatterNdResult bad_row(const ScatterNdPlan& plan, const Index* indices, std::int64_t row) {
  ScatterNdResult result;
  result.first_bad_index = row;
  for (int d = 0; d < plan.depth; ++d) {
    result.bad_components.push_back(static_cast<std::int64_t>(indices[row * plan.depth + d]));
  }
  return result;
}

template <ScatterOp Op, class T>
inline void apply_row(T* out, const T* update, std::int64_t count) {
  for (std::int64_t j = 0; j < count; ++j) out[j] = kernels::Combine<Op>::apply(out[j], update[j]);
}

// Small problems: one thread, rows in order.
template <ScatterOp Op, class T, class Index>
ScatterNdResult run_serial(const ScatterNdPlan& plan, const ScatterNdBuffers& buffers,
                           const ScatterGeometry& geometry) {
  const auto* indices = static_cast<const Index*>(buffers.indices);
  const auto* updates = static_cast<const T*>(buffers.updates);
  auto* out = static_cast<T*>(buffers.out);
  const std::int64_t s = plan.slice_size;
  ScatterNdResult result;
  if (plan.policy == OutOfBoundsPolicy::kError) {
    for (std::int64_t row = 0; row < plan.num_rows; ++row) {
      std::int64_t slice = 0;
      if (!geometry.slice_of(indices + row * plan.depth, &slice)) {
        return bad_row(plan, indices, row);
      }
    }
  }
  if (buffers.out != buffers.tensor && plan.num_elements > 0) {
    std::memcpy(out, buffers.tensor, static_cast<std::size_t>(plan.num_elements) * sizeof(T));
  }
  for (std::int64_t row = 0; row < plan.num_rows; ++row) {
    std::int64_t slice = 0;
    if (!geometry.slice_of(indices + row * plan.depth, &slice)) {
      ++result.dropped_count;
      continue;
    }
    apply_row<Op>(out + slice * s, updates + row * s, s);
  }
  return result;
}

// How the output is cut into tasks: groups of whole slices, each group cut into `parts`
// ranges of elements of the slice (parts > 1 only when a group is one large slice).
struct Layout {
  std::int64_t slices_per_group = 1;
  std::int64_t groups = 0;
  std::int64_t parts = 1;
  std::int64_t part_size = 0;
};

Layout make_layout(const ScatterNdPlan& plan, std::size_t element_bytes, std::int64_t block_bytes) {
  Layout layout;
  const std::int64_t block_elements =
      std::max<std::int64_t>(1, block_bytes / static_cast<std::int64_t>(element_bytes));
  if (plan.slice_size >= block_elements) {
    layout.slices_per_group = 1;
    layout.parts = (plan.slice_size + block_elements - 1) / block_elements;
  } else {
    layout.slices_per_group = std::max<std::int64_t>(1, block_elements / plan.slice_size);
  }
  layout.part_size = (plan.slice_size + layout.parts - 1) / layout.parts;
  layout.groups = (plan.num_slices + layout.slices_per_group - 1) / layout.slices_per_group;
  return layout;
}

// One bucketed row: its slice and either its row (slices of several elements) or, for
// one-element slices, the update value itself, so the apply pass reads one stream.
template <class Id, class Payload>
struct Entry {
  Id slice;
  Payload payload;
};

// Makes the entry of a good row.
template <class Id>
struct RowPayload {
  using EntryType = Entry<Id, Id>;
  EntryType operator()(std::int64_t slice, std::int64_t row) const {
    return EntryType{static_cast<Id>(slice), static_cast<Id>(row)};
  }
};
template <class Id, class T>
struct ValuePayload {
  using EntryType = Entry<Id, T>;
  const T* updates;
  EntryType operator()(std::int64_t slice, std::int64_t row) const {
    return EntryType{static_cast<Id>(slice), updates[row]};
  }
};

// Rows bucketed by group: entries [begin[g], begin[g+1]) are group g's, in row order.
template <class E>
struct Buckets {
  ScratchCache::Block memory;
  E* entries = nullptr;
  std::vector<std::int64_t> begin;
  std::int64_t first_bad_index = -1;
  std::int64_t dropped_count = 0;

  Buckets() = default;
  Buckets(Buckets&&) noexcept = default;
  Buckets& operator=(Buckets&&) noexcept = default;
  ~Buckets() {
    if (memory.data) scratch_cache().release(std::move(memory));
  }
};

template <class Index, class Make>
Buckets<typename Make::EntryType> bucket_rows(const ScatterNdPlan& plan,
                                              const ScatterGeometry& geometry, const Index* indices,
                                              const Layout& layout, const Make& make) {
  using E = typename Make::EntryType;
  const std::int64_t n = plan.num_rows;
  const std::int64_t groups = layout.groups;
  const std::int64_t spg = layout.slices_per_group;
  const int chunks = std::max(1, core::chunk_count(n, kMinRowsPerChunk));
  std::vector<std::int64_t> chunk_begin(static_cast<std::size_t>(chunks) + 1);
  for (int c = 0; c <= chunks; ++c) {
    chunk_begin[static_cast<std::size_t>(c)] =
        n / chunks * c + std::min<std::int64_t>(c, n % chunks);
  }
  std::vector<std::int64_t> counts(static_cast<std::size_t>(chunks * groups), 0);
  std::vector<std::int64_t> first_bad(static_cast<std::size_t>(chunks), -1);
  std::vector<std::int64_t> dropped(static_cast<std::size_t>(chunks), 0);
  const bool stop_at_bad = plan.policy == OutOfBoundsPolicy::kError;

  // 1. Check and count.
  core::parallel_for(chunks, 1, [&](std::int64_t c_begin, std::int64_t c_end) {
    for (std::int64_t c = c_begin; c < c_end; ++c) {
      std::int64_t* count = counts.data() + c * groups;
      for (std::int64_t row = chunk_begin[static_cast<std::size_t>(c)];
           row < chunk_begin[static_cast<std::size_t>(c) + 1]; ++row) {
        std::int64_t slice = 0;
        if (geometry.slice_of(indices + row * plan.depth, &slice)) {
          ++count[slice / spg];
        } else {
          if (first_bad[static_cast<std::size_t>(c)] < 0) {
            first_bad[static_cast<std::size_t>(c)] = row;
            if (stop_at_bad) break;
          }
          ++dropped[static_cast<std::size_t>(c)];
        }
      }
    }
  });
  Buckets<E> buckets;
  for (int c = 0; c < chunks; ++c) {
    buckets.dropped_count += dropped[static_cast<std::size_t>(c)];
    if (buckets.first_bad_index < 0)
      buckets.first_bad_index = first_bad[static_cast<std::size_t>(c)];
  }
  if (stop_at_bad && buckets.first_bad_index >= 0) return buckets;

  // 2. Places: group-major, chunk-minor, so each group's rows stay in row order.
  buckets.begin.assign(static_cast<std::size_t>(groups) + 1, 0);
  std::int64_t running = 0;
  for (std::int64_t g = 0; g < groups; ++g) {
    buckets.begin[static_cast<std::size_t>(g)] = running;
    for (int c = 0; c < chunks; ++c) {
      std::int64_t& count = counts[static_cast<std::size_t>(c * groups + g)];
      const std::int64_t here = count;
      count = running;
      running += here;
    }
  }
  buckets.begin[static_cast<std::size_t>(groups)] = running;

  // 3. Fill.
  const auto entries = static_cast<std::size_t>(std::max<std::int64_t>(running, 1));
  buckets.memory = scratch_cache().acquire(entries * sizeof(E));
  buckets.entries = reinterpret_cast<E*>(buckets.memory.data.get());
  E* out = buckets.entries;
  core::parallel_for(chunks, 1, [&](std::int64_t c_begin, std::int64_t c_end) {
    for (std::int64_t c = c_begin; c < c_end; ++c) {
      std::int64_t* place = counts.data() + c * groups;
      for (std::int64_t row = chunk_begin[static_cast<std::size_t>(c)];
           row < chunk_begin[static_cast<std::size_t>(c) + 1]; ++row) {
        std::int64_t slice = 0;
        if (!geometry.slice_of(indices + row * plan.depth, &slice)) continue;
        out[place[slice / spg]++] = make(slice, row);
      }
    }
  });
  return buckets;
}

// Runs the tasks: task (group, part) copies its block (out of place), then apply(entry,
// first element, element count) for each of the group's entries in order.
template <class T, class E, class Apply>
void run_tasks(const ScatterNdPlan& plan, const ScatterNdBuffers& buffers, const Layout& layout,
               const Buckets<E>& buckets, const Apply& apply) {
  const auto* tensor = static_cast<const T*>(buffers.tensor);
  auto* out = static_cast<T*>(buffers.out);
  const bool copy = buffers.out != buffers.tensor;
  const std::int64_t s = plan.slice_size;
  const std::int64_t tasks = layout.groups * layout.parts;
  std::atomic<std::int64_t> next{0};
  // Tasks are claimed dynamically (their costs differ); each writes only its own block.
  core::parallel_for(core::cpu_thread_count(), 1, [&](std::int64_t, std::int64_t) {
    for (;;) {
      const std::int64_t task = next.fetch_add(1, std::memory_order_relaxed);
      if (task >= tasks) return;
      const std::int64_t g = task / layout.parts;
      const std::int64_t part = task % layout.parts;
      const std::int64_t j_begin = part * layout.part_size;
      const std::int64_t j_count = std::min(s, j_begin + layout.part_size) - j_begin;
      if (copy) {
        const std::int64_t s_begin = g * layout.slices_per_group;
        const std::int64_t s_end = std::min(plan.num_slices, s_begin + layout.slices_per_group);
        if (layout.parts == 1) {
          std::memcpy(out + s_begin * s, tensor + s_begin * s,
                      static_cast<std::size_t>((s_end - s_begin) * s) * sizeof(T));
        } else {
          std::memcpy(out + s_begin * s + j_begin, tensor + s_begin * s + j_begin,
                      static_cast<std::size_t>(j_count) * sizeof(T));
        }
      }
      const E* entry = buckets.entries + buckets.begin[static_cast<std::size_t>(g)];
      const E* entry_end = buckets.entries + buckets.begin[static_cast<std::size_t>(g) + 1];
      for (; entry != entry_end; ++entry) apply(*entry, j_begin, j_count);
    }
  });
}

template <ScatterOp Op, class T, class Index, class Make, class Apply>
ScatterNdResult bucket_and_apply(const ScatterNdPlan& plan, const ScatterNdBuffers& buffers,
                                 const ScatterGeometry& geometry, const Layout& layout,
                                 const Make& make, const Apply& apply) {
  const auto* indices = static_cast<const Index*>(buffers.indices);
  auto buckets = bucket_rows(plan, geometry, indices, layout, make);
  if (plan.policy == OutOfBoundsPolicy::kError && buckets.first_bad_index >= 0) {
    return bad_row(plan, indices, buckets.first_bad_index);
  }
  ScatterNdResult result;
  result.dropped_count = buckets.dropped_count;
  run_tasks<T>(plan, buffers, layout, buckets, apply);
  return result;
}

template <ScatterOp Op, class T, class Index, class Id>
ScatterNdResult run_parallel(const ScatterNdPlan& plan, const ScatterNdBuffers& buffers,
                             const ScatterGeometry& geometry, const ScatterNdTuning& tuning) {
  const Layout layout = make_layout(plan, sizeof(T), tuning.block_bytes);
  const auto* updates = static_cast<const T*>(buffers.updates);
  T* out = static_cast<T*>(buffers.out);
  const std::int64_t s = plan.slice_size;
  if (s == 1) {
    return bucket_and_apply<Op, T, Index>(plan, buffers, geometry, layout,
                                          ValuePayload<Id, T>{updates},
                                          [out](const Entry<Id, T>& e, std::int64_t, std::int64_t) {
                                            T& target = out[static_cast<std::int64_t>(e.slice)];
                                            target = kernels::Combine<Op>::apply(target, e.payload);
                                          });
  }
  return bucket_and_apply<Op, T, Index>(
      plan, buffers, geometry, layout, RowPayload<Id>{},
      [out, updates, s](const Entry<Id, Id>& e, std::int64_t j_begin, std::int64_t j_count) {
        apply_row<Op>(out + static_cast<std::int64_t>(e.slice) * s + j_begin,
                      updates + static_cast<std::int64_t>(e.payload) * s + j_begin, j_count);
      });
}

template <ScatterOp Op, class T, class Index>
ScatterNdResult run(const ScatterNdPlan& plan, const ScatterNdBuffers& buffers,
                    const ScatterNdTuning& tuning) {
  std::vector<std::int64_t> table;
  const ScatterGeometry geometry = host_geometry(plan, table);
  const bool in_place = buffers.out == buffers.tensor;
  const std::int64_t work = plan.num_rows * plan.slice_size + (in_place ? 0 : plan.num_elements);
  if (work < tuning.serial_below || plan.slice_size == 0 || plan.num_slices == 0) {
    return run_serial<Op, T, Index>(plan, buffers, geometry);
  }
  constexpr auto kId32 = static_cast<std::int64_t>(std::numeric_limits<std::uint32_t>::max());
  if (plan.num_rows < kId32 && plan.num_slices < kId32) {
    return run_parallel<Op, T, Index, std::uint32_t>(plan, buffers, geometry, tuning);
  }
  return run_parallel<Op, T, Index, std::uint64_t>(plan, buffers, geometry, tuning);
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
    case ScatterOp::kSub:
      return run_op<ScatterOp::kSub>(plan, buffers, tuning);
    case ScatterOp::kAdd:
      return run_op<ScatterOp::kAdd>(plan, buffers, tuning);
    case ScatterOp::kUpdate:
      return run_op<ScatterOp::kUpdate>(plan, buffers, tuning);
    case ScatterOp::kMin:
      return run_op<ScatterOp::kMin>(plan, buffers, tuning);
    case ScatterOp::kMax:
      return run_op<ScatterOp::kMax>(plan, buffers, tuning);
  }
  throw InternalError("unknown scatter op");
}

ScatterNdResult scatter_nd(const ScatterNdPlan& plan, const ScatterNdBuffers& buffers) {
  return scatter_nd_tuned(plan, buffers, ScatterNdTuning{});
}

}  // namespace tensorbuf::cpu
