// The public runtime functions that src/core answers (cpu_code_paths lives in src/cpu).
#include "tensorbuf/runtime.hpp"

#include "core/dispatch.hpp"
#include "core/parallel.hpp"

namespace tensorbuf {

int cpu_thread_count() { return core::cpu_thread_count(); }

void synchronize(Device device, Stream stream) {
  if (!device.is_cuda()) return;
  core::require_usable(device);
  const core::CudaContext context = core::cuda_context(device, stream);
  core::EventHandle event = context.memory->record_event(nullptr, context.device, context.stream);
  try {
    context.memory->host_wait(event);
  } catch (...) {
    context.memory->destroy_event(event);
    throw;
  }
  context.memory->destroy_event(event);
}

}  // namespace tensorbuf
