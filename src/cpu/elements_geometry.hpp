// The element mapping of gather_elements / scatter_elements on the CPU: kernels' geometry with
// a deep layout's dims and strides in a host table it owns, and walks that divide once per run
// of positions instead of once per position (a 64-bit division costs more than the L3 read it
// addresses).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/elements_plan.hpp"
#include "kernels/elements.hpp"

namespace tensorbuf::cpu {

class HostElementsGeometry {
 public:
  explicit HostElementsGeometry(const core::ElementsLayout& layout)
      : geometry_(kernels::make_elements_geometry(layout)) {
    if (geometry_.rank > kernels::kInlineElementsRank) {
      table_.assign(layout.dims.begin(), layout.dims.end());
      table_.insert(table_.end(), layout.strides.begin(), layout.strides.end());
      geometry_.external = table_.data();
    }
  }
  HostElementsGeometry(const HostElementsGeometry&) = delete;
  HostElementsGeometry& operator=(const HostElementsGeometry&) = delete;
  ~HostElementsGeometry() = default;

  const kernels::ElementsGeometry& get() const { return geometry_; }

  /// Splits positions [begin, end) into runs along the last merged dim and calls
  /// row(first, count, base, stride) for each: base = base_of(first), and position first + k
  /// has base + k * stride (stride 0 when the last dim is the axis).
  template <class Row>
  void for_each_row(std::int64_t begin, std::int64_t end, Row&& row) const {
    const int last = geometry_.rank - 1;
    const bool inline_dims = geometry_.rank <= kernels::kInlineElementsRank;
    const std::int64_t width =
        inline_dims ? geometry_.dims[last] : table_[static_cast<std::size_t>(last)];
    const std::int64_t stride =
        inline_dims ? geometry_.strides[last] : table_[static_cast<std::size_t>(2 * last + 1)];
    for (std::int64_t first = begin; first < end;) {
      const std::int64_t count = std::min(width - first % width, end - first);
      row(first, count, geometry_.base_of(first), stride);
      first += count;
    }
  }

 private:
  kernels::ElementsGeometry geometry_;
  std::vector<std::int64_t> table_;
};

}  // namespace tensorbuf::cpu
