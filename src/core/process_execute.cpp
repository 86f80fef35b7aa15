#include "core/process_execute.hpp"

#include "core/backend_run.hpp"
#include "core/buffer_access.hpp"
#include "core/processing_backends.hpp"

namespace tensorbuf::core {

void execute_process(const ProcessPlan& plan, const TensorBuffer& x, TensorBuffer& out,
                     Device device, Stream stream) {
  BackendRun backend(device, stream);
  ProcessBuffers buffers;
  buffers.in = backend.read(x);
  buffers.out = backend.overwrite(out);
  if (backend.on_cuda()) {
    cuda::process(plan, buffers, backend.cuda());
  } else {
    cpu::process(plan, buffers);
  }
  backend.finish();
}

TensorBuffer process_new(const ProcessPlan& plan, const TensorBuffer& x, Device device,
                         Stream stream) {
  TensorBuffer out =
      BufferAccess::uninitialized(BufferAccess::shape(x), plan.out_type, x.is_dynamic());
  execute_process(plan, x, out, device, stream);
  return out;
}

}  // namespace tensorbuf::core
