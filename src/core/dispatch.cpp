#include "core/dispatch.hpp"

#include <atomic>

#include "core/backend.hpp"
#include "core/error_macros.hpp"

namespace tensorbuf {
namespace core {
namespace {

std::atomic<DeviceMemory*> g_test_memory{nullptr};

const cuda::ProbeResult& cached_probe() {
  static const cuda::ProbeResult result = cuda::probe();
  return result;
}

}  // namespace

DeviceMemory* device_memory() {
  if (DeviceMemory* test = g_test_memory.load()) return test;
  if (cached_probe().availability != CudaAvailability::kAvailable) return nullptr;
  return &cuda::device_memory();
}

void set_device_memory_for_testing(DeviceMemory* memory) { g_test_memory.store(memory); }

void require_usable(Device device) {
  if (!device.is_cuda()) return;
  TENSORBUF_EXPECTS(cuda_available(), UnavailableError,
                    str_cat("CUDA requested but unavailable: ", cuda_availability_reason()));
  TENSORBUF_EXPECTS(
      device.index >= 0 && device.index < cuda_device_count(), UnavailableError,
      str_cat("no CUDA device ", device.index, " (", cuda_device_count(), " present)"));
}

Device resolve_device(const std::optional<Device>& requested, const TensorBuffer& primary) {
  // Not value_or: its argument would be evaluated, and residence() takes the storage's lock.
  const Device device = requested ? *requested : primary.residence();
  require_usable(device);
  return device;
}

CudaContext cuda_context(Device device, Stream stream) {
  CudaContext context;
  context.device = device.index;
  context.memory = device_memory();
  TENSORBUF_EXPECTS(context.memory != nullptr, UnavailableError,
                    str_cat("CUDA unavailable: ", cuda_availability_reason()));
  context.stream =
      stream.handle != nullptr ? stream.handle : context.memory->default_stream(device.index);
  return context;
}

}  // namespace core

CudaAvailability cuda_availability() { return core::cached_probe().availability; }
std::string cuda_availability_reason() { return core::cached_probe().reason; }
bool cuda_available() { return cuda_availability() == CudaAvailability::kAvailable; }
int cuda_device_count() { return cuda_available() ? core::cached_probe().device_count : 0; }

}  // namespace tensorbuf
