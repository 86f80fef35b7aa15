// The CUDA backend's entry points when tensorbuf is built without CUDA: each raises
// UnavailableError("built without CUDA"); the probe reports it.
#include "core/backend.hpp"
#include "core/error_macros.hpp"
#include "core/plan_substr.hpp"
#include "core/plan_boolean_mask_update.hpp"
#include "core/plan_scatter_nd.hpp"

namespace tensorbuf::cuda {
namespace {
[[noreturn]] void not_built() { throw UnavailableError("built without CUDA"); }
}  // namespace

ProbeResult probe() {
  ProbeResult result;
  result.availability = CudaAvailability::kNotBuilt;
  result.reason = "not built: tensorbuf was built without CUDA";
  return result;
}

core::DeviceMemory& device_memory() { not_built(); }

std::string build_info() { return "without CUDA"; }

// Op entry points (one block per op, in the order of src/core/plan_*.hpp).

// --- boolean_mask_update (src/core/plan_boolean_mask_update.hpp) ---
core::MaskUpdateResult boolean_mask_update(const core::BooleanMaskUpdatePlan&,
                                           const core::MaskUpdateBuffers&,
                                           const core::CudaContext&) {
  not_built();
}
// --- end boolean_mask_update ---

// --- scatter_nd (src/core/plan_scatter_nd.hpp) ---
core::ScatterNdResult scatter_nd(const core::ScatterNdPlan&, const core::ScatterNdBuffers&,
                                 const core::CudaContext&) {
  not_built();
}
// --- end scatter_nd ---

// --- substr (src/core/plan_substr.hpp) ---
core::SubstrResult substr(const core::SubstrPlan&, const core::SubstrArgs&,
                          const core::CudaContext&) {
  not_built();
}
// --- end substr ---

}  // namespace tensorbuf::cuda
