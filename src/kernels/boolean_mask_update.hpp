// boolean_mask_update: the per-element logic shared by both backends, and the multi-pass
// driver of the CUDA backend (mask flags -> exclusive scan -> fused write), written over an
// executor (executor.hpp) so CPU tests run it through HostExecutor.
//
// The op is an "expand", the inverse of stream compaction: with the tensor viewed as
// [outer, M, inner], the j-th true mask position m (j = exclusive scan of the mask flags at m)
// receives row j of the (broadcast) updates for every o and every trailing element t.
#pragma once

#include <cstdint>

#include "core/plan_boolean_mask_update.hpp"
#include "kernels/config.hpp"

namespace tensorbuf::kernels {

// Offset of a row-major index over (dims, strides) of `rank` dims; strides may be 0.
TENSORBUF_HD inline std::int64_t unravel_offset(std::int64_t index, int rank,
                                                const std::int64_t* dims,
                                                const std::int64_t* strides) {
  std::int64_t offset = 0;
  for (int d = rank - 1; d >= 0; --d) {
    const std::int64_t q = index / dims[d];
    offset += (index - q * dims[d]) * strides[d];
    index = q;
  }
  return offset;
}

// Offset in `updates` of the first element of target row (o, j): lead part + j * row_stride.
TENSORBUF_HD inline std::int64_t mask_update_row_offset(const core::MaskUpdateLayout& layout,
                                                        std::int64_t o, std::int64_t j) {
  const std::int64_t lead =
      layout.lead_rank == 0
          ? 0
          : unravel_offset(o, layout.lead_rank, layout.lead_dims, layout.lead_strides);
  return lead + j * layout.row_stride;
}

// Offset in `updates` of trailing element t within a row.
TENSORBUF_HD inline std::int64_t mask_update_trail_offset(const core::MaskUpdateLayout& layout,
                                                          std::int64_t t) {
  if (layout.trail_contiguous) return t;
  if (layout.trail_broadcast) return 0;
  return unravel_offset(t, layout.trail_rank, layout.trail_dims, layout.trail_strides);
}

// Whether the updates row of (o, j) depends on j, i.e. the write needs the scan.
inline bool mask_update_needs_scan(const core::MaskUpdateLayout& layout) {
  return layout.row_stride != 0;
}

// flags[m] = mask[m] != 0 (the scan then runs in place over flags).
template <class Index>
struct MaskFlagsFunctor {
  const std::uint8_t* mask;
  Index* flags;
  TENSORBUF_HD void operator()(std::int64_t m) const { flags[m] = mask[m] != 0 ? 1 : 0; }
};

// *total = scan[last] + flag(last): the count n, on the executor's side.
template <class Index>
struct MaskTotalFunctor {
  const std::uint8_t* mask;
  const Index* scan;
  std::int64_t last;
  std::int64_t* total;
  TENSORBUF_HD void operator()(std::int64_t) const {
    *total = static_cast<std::int64_t>(scan[last]) + (mask[last] != 0 ? 1 : 0);
  }
};

// Splits element e of the tensor into (o, m, t); the divisions are skipped where a side is 1.
TENSORBUF_HD inline void mask_update_split(const core::MaskUpdateLayout& layout, std::int64_t e,
                                           std::int64_t& o, std::int64_t& m, std::int64_t& t) {
  std::int64_t row = e;
  t = 0;
  if (layout.inner != 1) {
    row = e / layout.inner;
    t = e - row * layout.inner;
  }
  o = 0;
  m = row;
  if (layout.outer != 1) {
    o = row / layout.mask_size;
    m = row - o * layout.mask_size;
  }
}

// One pass over the output: out[e] = masked ? updates'[o, scan[m], t] : tensor[e]. In place
// (`tensor` null) only masked elements are written. `scan` may be null when the layout does
// not need it (row_stride == 0). Carrier is an unsigned integer of the element's size: the op
// only moves bytes.
template <class Carrier, class Index>
struct MaskUpdateFusedFunctor {
  core::MaskUpdateLayout layout;
  const std::uint8_t* mask;
  const Index* scan;
  const Carrier* tensor;
  const Carrier* updates;
  Carrier* out;
  TENSORBUF_HD void operator()(std::int64_t e) const {
    std::int64_t o, m, t;
    mask_update_split(layout, e, o, m, t);
    if (mask[m] != 0) {
      const std::int64_t j = scan != nullptr ? static_cast<std::int64_t>(scan[m]) : 0;
      out[e] = updates[mask_update_row_offset(layout, o, j) + mask_update_trail_offset(layout, t)];
    } else if (tensor != nullptr) {
      out[e] = tensor[e];
    }
  }
};

// The driver. `out == tensor` runs in place. Index (int32 or int64) holds the scan; the caller
// picks int32 when M fits. Steps, all on the executor's side:
//   1. flags[m] = mask[m] != 0; exclusive scan in place (only when the write or the check needs
//      it);
//   2. if required_count >= 0: n = scan[M-1] + flag(M-1), read back to the host (the one host
//      wait of the op); n != required_count -> nothing written, {false, n};
//   3. one pass over the tensor's elements (fused copy + update, or masked writes in place).
template <class Carrier, class Index, class Executor>
core::MaskUpdateResult run_boolean_mask_update(Executor& ex, const core::MaskUpdateLayout& layout,
                                               std::int64_t required_count,
                                               const std::uint8_t* mask, const Carrier* tensor,
                                               const Carrier* updates, Carrier* out) {
  core::MaskUpdateResult result;
  const std::int64_t m_size = layout.mask_size;
  Index* scan = nullptr;
  if (m_size > 0 && (mask_update_needs_scan(layout) || required_count >= 0)) {
    scan = ex.template scratch<Index>(m_size);
    ex.for_each_index(m_size, MaskFlagsFunctor<Index>{mask, scan});
    ex.exclusive_scan(scan, scan, m_size);
  }
  if (required_count >= 0) {
    std::int64_t n = 0;
    if (m_size > 0) {
      std::int64_t* total = ex.template scratch<std::int64_t>(1);
      ex.for_each_index(1, MaskTotalFunctor<Index>{mask, scan, m_size - 1, total});
      n = ex.read_value(total);
    }
    result.count = n;
    if (n != required_count) {
      result.applied = false;
      return result;
    }
  }
  const Index* row_scan = mask_update_needs_scan(layout) ? scan : nullptr;
  const std::int64_t elements = layout.outer * m_size * layout.inner;
  if (out == tensor) {
    ex.for_each_index(
        elements, MaskUpdateFusedFunctor<Carrier, Index>{layout, mask, row_scan, nullptr, updates, out});
  } else {
    ex.for_each_index(elements, MaskUpdateFusedFunctor<Carrier, Index>{layout, mask, row_scan,
                                                                       tensor, updates, out});
  }
  return result;
}

}  // namespace tensorbuf::kernels
