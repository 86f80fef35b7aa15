// boolean_mask_update and boolean_mask_update_in_place: plan, pick the device, run the backend,
// turn a count mismatch into the spec's error.
#include <cstdint>

#include "core/backend_run.hpp"
#include "core/boolean_mask_update_backends.hpp"
#include "core/buffer_access.hpp"
#include "core/capture.hpp"
#include "core/dispatch.hpp"
#include "core/error_macros.hpp"
#include "core/in_place.hpp"
#include "core/op_errors.hpp"
#include "core/plan_boolean_mask_update.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf {
namespace {

// Runs the plan on `device`, writing `out` (which may be `tensor`: in place). Throws the
// n-dependent shape error without having written anything.
void run(const core::BooleanMaskUpdatePlan& plan, Device device, Stream stream,
         const TensorBuffer& tensor, const TensorBuffer& mask, const TensorBuffer& updates,
         TensorBuffer& out) {
  const bool in_place = &out == &tensor;
  core::reject_capture("boolean_mask_update", core::mask_update_capture_blocker(plan), device,
                       stream);
  core::BackendRun backend(device, stream);
  core::BooleanMaskUpdateBuffers buffers;
  buffers.mask = static_cast<const std::uint8_t*>(backend.read(mask));
  buffers.updates = backend.read(updates);
  if (in_place) {
    // Counted before writing, so an error leaves the tensor as it was; mutate only syncs (and
    // copies caller memory), it changes no value.
    buffers.out = backend.mutate(out);
    buffers.tensor = buffers.out;
  } else {
    buffers.tensor = backend.read(tensor);
    buffers.out = backend.overwrite(out);
  }
  const core::BooleanMaskUpdateResult result =
      backend.on_cuda() ? cuda::boolean_mask_update(plan, buffers, backend.cuda())
                        : cpu::boolean_mask_update(plan, buffers);
  backend.finish();
  core::raise_if_rejected(plan, result);
}

}  // namespace

TensorBuffer boolean_mask_update(const TensorBuffer& tensor, const TensorBuffer& mask,
                                 const TensorBuffer& updates,
                                 const BooleanMaskUpdateOptions& options) {
  const core::BooleanMaskUpdatePlan plan =
      core::plan_boolean_mask_update(tensor, mask, updates, options);
  const Device device = core::resolve_device(options.device, tensor);
  TensorBuffer out = TensorBuffer::create_uninitialized(tensor.shape(), tensor.data_type());
  run(plan, device, options.stream, tensor, mask, updates, out);
  return out;
}

void boolean_mask_update_in_place(TensorBuffer& tensor, const TensorBuffer& mask,
                                  const TensorBuffer& updates,
                                  const BooleanMaskUpdateOptions& options) {
  const core::BooleanMaskUpdatePlan plan =
      core::plan_boolean_mask_update(tensor, mask, updates, options);
  const Device device = core::resolve_device(options.device, tensor);
  // `tensor` may also be the mask or the updates (NumPy's `t[t] = u`, `t[m] = t`).
  const bool aliased = core::shares_memory(tensor, mask) || core::shares_memory(tensor, updates);
  core::run_in_place(tensor, aliased, device, options.stream, [&](TensorBuffer& out) {
    run(plan, device, options.stream, tensor, mask, updates, out);
  });
}

}  // namespace tensorbuf
