#include "core/capture.hpp"

#include "core/device_memory.hpp"
#include "core/dispatch.hpp"
#include "core/error_macros.hpp"

namespace tensorbuf::core {

const char* axis_index_capture_blocker(OutOfBoundsPolicy policy) {
  if (policy == OutOfBoundsPolicy::kError) {
    return "kError reads the first bad index back to the host";
  }
  return nullptr;
}

const char* linear_capture_blocker(const TensorBuffer& scale, const TensorBuffer& zero_point) {
  if (scale.is_valid_on(Device::cpu()) && zero_point.is_valid_on(Device::cpu())) return nullptr;
  return "scale and zero_point are read on the host, and their freshest copy is on the device";
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
