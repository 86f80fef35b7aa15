// DLPack capsules a foreign producer would hand over, for the import tests: the managed struct
// owns its shape and strides and counts its deleter's calls.
#pragma once

#include <cstdint>
#include <vector>

#include "tensorbuf/dlpack.hpp"

namespace tensorbuf::testing {

template <class Managed>
struct ForeignCapsule {
  ForeignCapsule(void* data, std::vector<std::int64_t> shape_dims, DLDataType dtype,
                 DLDevice device = DLDevice{kDLCPU, 0})
      : shape(std::move(shape_dims)) {
    managed.dl_tensor.data = data;
    managed.dl_tensor.device = device;
    managed.dl_tensor.ndim = static_cast<std::int32_t>(shape.size());
    managed.dl_tensor.dtype = dtype;
    managed.dl_tensor.shape = shape.data();
    managed.manager_ctx = this;
    managed.deleter = [](Managed* self) {
      static_cast<ForeignCapsule*>(self->manager_ctx)->deleter_calls++;
    };
    if constexpr (requires { managed.version; }) managed.version = DLPackVersion{1, 0};
  }
  void set_strides(std::vector<std::int64_t> s) {
    strides = std::move(s);
    managed.dl_tensor.strides = strides.data();
  }
  Managed* get() { return &managed; }

  Managed managed{};
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
  int deleter_calls = 0;
};

using LegacyCapsule = ForeignCapsule<DLManagedTensor>;
using VersionedCapsule = ForeignCapsule<DLManagedTensorVersioned>;

inline constexpr DLDataType kF32{kDLFloat, 32, 1};

}  // namespace tensorbuf::testing
