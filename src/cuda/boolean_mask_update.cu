// The CUDA backend of boolean_mask_update: the driver of src/kernels/boolean_mask_update.hpp
// with the CUDA executor. The op only moves bytes, so the kernels are instantiated once per
// element size (1, 2, 4, 8 bytes), each with an int32 scan (M < 2^31) and an int64 one.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <limits>

#include "core/plan_boolean_mask_update.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/cuda_executor.cuh"
#include "kernels/boolean_mask_update.hpp"

namespace tensorbuf::cuda {
namespace {

template <class Carrier>
core::MaskUpdateResult run_sized(CudaExecutor& ex, const core::BooleanMaskUpdatePlan& plan,
                                 const core::MaskUpdateBuffers& buffers) {
  const auto* tensor = static_cast<const Carrier*>(buffers.tensor);
  const auto* updates = static_cast<const Carrier*>(buffers.updates);
  auto* out = static_cast<Carrier*>(buffers.out);
  if (plan.layout.mask_size <= std::numeric_limits<std::int32_t>::max()) {
    return kernels::run_boolean_mask_update<Carrier, std::int32_t>(
        ex, plan.layout, plan.required_count, buffers.mask, tensor, updates, out);
  }
  return kernels::run_boolean_mask_update<Carrier, std::int64_t>(
      ex, plan.layout, plan.required_count, buffers.mask, tensor, updates, out);
}

}  // namespace

core::MaskUpdateResult boolean_mask_update(const core::BooleanMaskUpdatePlan& plan,
                                           const core::MaskUpdateBuffers& buffers,
                                           const core::CudaContext& context) {
  CudaExecutor ex(context);
  switch (plan.element_size) {
    case 1:
      return run_sized<std::uint8_t>(ex, plan, buffers);
    case 2:
      return run_sized<std::uint16_t>(ex, plan, buffers);
    case 4:
      return run_sized<std::uint32_t>(ex, plan, buffers);
    case 8:
      return run_sized<std::uint64_t>(ex, plan, buffers);
    default:
      break;
  }
  throw InternalError("boolean_mask_update: unsupported element size");
}

}  // namespace tensorbuf::cuda
