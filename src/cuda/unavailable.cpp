// The CUDA backend's entry points when tensorbuf is built without CUDA: each raises
// UnavailableError("built without CUDA"); the probe reports it.
#include "core/backend.hpp"
#include "core/boolean_mask_backends.hpp"
#include "core/boolean_mask_update_backends.hpp"
#include "core/elements_backends.hpp"
#include "core/error_macros.hpp"
#include "core/gather_backends.hpp"
#include "core/gather_nd_backends.hpp"
#include "core/processing_backends.hpp"
#include "core/quantize_linear_backends.hpp"
#include "core/route_rows_backend.hpp"
#include "core/scatter_nd_backends.hpp"
#include "core/substr_backends.hpp"

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

// Op entry points (one block per op, in the order of src/core/*_backends.hpp).

// --- boolean_mask (src/core/boolean_mask_backends.hpp) ---
core::BooleanMaskResult boolean_mask(const core::BooleanMaskPlan&, const core::BooleanMaskBuffers&,
                                     const core::AllocateMasked&, const core::CudaContext&) {
  not_built();
}
// --- end boolean_mask ---

// --- boolean_mask_update (src/core/boolean_mask_update_backends.hpp) ---
core::BooleanMaskUpdateResult boolean_mask_update(const core::BooleanMaskUpdatePlan&,
                                                  const core::BooleanMaskUpdateBuffers&,
                                                  const core::CudaContext&) {
  not_built();
}
// --- end boolean_mask_update ---

// --- gather_nd (src/core/gather_nd_backends.hpp) ---
core::GatherNdResult gather_nd(const core::GatherNdPlan&, const core::GatherNdBuffers&,
                               const core::CudaContext&) {
  not_built();
}
// --- end gather_nd ---

// --- gather (src/core/gather_backends.hpp) ---
core::AxisIndexResult gather(const core::GatherPlan&, const core::GatherBuffers&,
                             const core::CudaContext&) {
  not_built();
}
// --- end gather ---

// --- gather_elements, scatter_elements (src/core/elements_backends.hpp) ---
core::AxisIndexResult gather_elements(const core::GatherElementsPlan&,
                                      const core::GatherElementsBuffers&,
                                      const core::CudaContext&) {
  not_built();
}
core::AxisIndexResult scatter_elements(const core::ScatterElementsPlan&,
                                       const core::ScatterElementsBuffers&,
                                       const core::CudaContext&) {
  not_built();
}
// --- end gather_elements, scatter_elements ---

// --- scatter_nd (src/core/scatter_nd_backends.hpp) ---
core::ScatterNdResult scatter_nd(const core::ScatterNdPlan&, const core::ScatterNdBuffers&,
                                 const core::CudaContext&) {
  not_built();
}
// --- end scatter_nd ---

// --- route_rows (src/core/route_rows_backend.hpp) ---
core::RoutedRows route_rows(const core::RouteRowsPlan&, const core::RouteRowsBuffers&,
                            const core::CudaContext&) {
  not_built();
}
// --- end route_rows ---

// --- substr (src/core/substr_backends.hpp) ---
core::SubstrResult substr(const core::SubstrPlan&, const core::SubstrBuffers&,
                          const core::AllocateChars&, const core::CudaContext&) {
  not_built();
}
// --- end substr ---

// --- processing (src/core/processing_backends.hpp, quantize_linear_backends.hpp) ---
void process(const core::ProcessPlan&, const core::ProcessBuffers&, const core::CudaContext&) {
  not_built();
}
void quantize_linear(const core::LinearPlan&, const core::LinearBuffers&,
                     const core::CudaContext&) {
  not_built();
}
void dequantize_linear(const core::LinearPlan&, const core::LinearBuffers&,
                       const core::CudaContext&) {
  not_built();
}
// --- end processing ---

}  // namespace tensorbuf::cuda
