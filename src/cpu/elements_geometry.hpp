// The element mapping of gather_elements / scatter_elements on the CPU: kernels' geometry with
// a deep layout's dims and strides in a host table it owns.
#pragma once

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

 private:
  kernels::ElementsGeometry geometry_;
  std::vector<std::int64_t> table_;
};

}  // namespace tensorbuf::cpu
