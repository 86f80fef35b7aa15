#include "core/capture.hpp"

#include "core/device_memory.hpp"
#include "core/dispatch.hpp"
#include "core/error_macros.hpp"

namespace tensorbuf::core {

const char* scatter_nd_capture_blocker(const ScatterNdPlan& plan) {
  // In place with an input aliasing the tensor runs out of place and copies back on the
  // device (core::run_in_place): nothing reaches the host.
  if (plan.policy == OutOfBoundsPolicy::kError) {
    return "kError reads the first bad row back to the host";
  }
  return nullptr;
}

const char* gather_nd_capture_blocker(const GatherNdPlan& plan) {
  if (plan.policy == OutOfBoundsPolicy::kError) {
    return "kError reads the first bad row back to the host";
  }
  return nullptr;
}

const char* axis_index_capture_blocker(OutOfBoundsPolicy policy) {
  if (policy == OutOfBoundsPolicy::kError) {
    return "kError reads the first bad index back to the host";
  }
  return nullptr;
}

const char* boolean_mask_capture_blocker(const BooleanMaskPlan&) {
  return "its output's shape depends on the count of true entries, read back on the host "
         "(boolean_mask_into takes a caller-sized output instead)";
}

const char* boolean_mask_into_capture_blocker(const BooleanMaskPlan&) { return nullptr; }

const char* linear_capture_blocker(const TensorBuffer& scale, const TensorBuffer& zero_point) {
  if (scale.is_valid_on(Device::cpu()) && zero_point.is_valid_on(Device::cpu())) return nullptr;
  return "scale and zero_point are read on the host, and their freshest copy is on the device";
}

const char* mask_update_capture_blocker(const BooleanMaskUpdatePlan& plan) {
  // Only a required n reaches the host (spec rule 8); the pass itself never reads back.
  if (plan.required_count >= 0 && plan.layout.mask_size > 0) {
    return "the count of true mask entries is read back to validate updates' shape";
  }
  return nullptr;
}

bool is_capturing(Device device, Stream stream) {
  if (!device.is_cuda()) return false;
  DeviceMemory* memory = device_memory();
  if (memory == nullptr) return false;  // the run itself raises UnavailableError
  const StreamHandle handle =
      stream.handle != nullptr ? stream.handle : memory->default_stream(device.index);
  return memory->is_capturing(handle);
}

void reject_capture(const char* op, const char* blocker, Device device, Stream stream) {
  if (blocker == nullptr) return;
  TENSORBUF_EXPECTS(!is_capturing(device, stream), UnavailableError,
                    str_cat(op, " cannot be captured in a CUDA graph: ", blocker,
                            " (docs/capture.md lists the forms that can)"));
}

}  // namespace tensorbuf::core
