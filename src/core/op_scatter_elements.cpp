// scatter_elements (+ _in_place): plan, pick the device, policy and determinism, allocate the
// output (or run in place, core/in_place.hpp), run the backend, and turn a bad index into the
// spec's message (core/axis_indices.hpp).
#include "core/axis_indices.hpp"
#include "core/backend_run.hpp"
#include "core/buffer_access.hpp"
#include "core/capture.hpp"
#include "core/dispatch.hpp"
#include "core/elements_backends.hpp"
#include "core/error_macros.hpp"
#include "core/in_place.hpp"
#include "core/plan_elements.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf {
namespace {

core::ScatterElementsPlan make_plan(const TensorBuffer& tensor, const TensorBuffer& indices,
                                    const TensorBuffer& updates,
                                    const ScatterElementsOptions& options, Device& device) {
  core::ScatterElementsPlan plan = core::plan_scatter_elements(tensor, indices, updates, options);
  device = core::resolve_device(options.device, tensor);
  plan.policy = core::resolve_policy(options.out_of_bounds, device);
  plan.deterministic = options.deterministic;
  core::reject_capture("scatter_elements", core::axis_index_capture_blocker(plan.policy), device,
                       options.stream);
  return plan;
}

// Runs the plan into `out`, which is `tensor` itself in place (then no input shares its memory:
// core::run_in_place). Under kError the backend checks before it writes.
void run(const core::ScatterElementsPlan& plan, Device device, Stream stream,
         const TensorBuffer& tensor, const TensorBuffer& indices, const TensorBuffer& updates,
         TensorBuffer& out) {
  core::BackendRun backend(device, stream);
  core::ScatterElementsBuffers buffers;
  buffers.indices = backend.read(indices);
  buffers.updates = backend.read(updates);
  if (&out == &tensor) {
    buffers.out = backend.mutate(out);
    buffers.tensor = buffers.out;
  } else {
    buffers.tensor = backend.read(tensor);
    buffers.out = backend.overwrite(out);
  }
  const core::AxisIndexResult result = backend.on_cuda()
                                           ? cuda::scatter_elements(plan, buffers, backend.cuda())
                                           : cpu::scatter_elements(plan, buffers);
  backend.finish();
  TENSORBUF_EXPECTS(result.applied(), InvalidArgumentError,
                    core::bad_axis_index_message(plan.layout.indices_dims, result.first_bad_index,
                                                 result.bad_value, plan.layout.axis,
                                                 plan.layout.tensor_dims));
}

}  // namespace

TensorBuffer scatter_elements(const TensorBuffer& tensor, const TensorBuffer& indices,
                              const TensorBuffer& updates, const ScatterElementsOptions& options) {
  Device device;
  const core::ScatterElementsPlan plan = make_plan(tensor, indices, updates, options, device);
  // Allocates nothing until the backend writes it, so a bad argument costs nothing.
  TensorBuffer out =
      TensorBuffer::create_uninitialized(core::BufferAccess::shape(tensor), tensor.data_type());
  run(plan, device, options.stream, tensor, indices, updates, out);
  return out;
}

void scatter_elements_in_place(TensorBuffer& tensor, const TensorBuffer& indices,
                               const TensorBuffer& updates, const ScatterElementsOptions& options) {
  Device device;
  const core::ScatterElementsPlan plan = make_plan(tensor, indices, updates, options, device);
  const bool aliased = core::shares_memory(tensor, indices) || core::shares_memory(tensor, updates);
  core::run_in_place(tensor, aliased, device, options.stream, [&](TensorBuffer& out) {
    run(plan, device, options.stream, tensor, indices, updates, out);
  });
}

}  // namespace tensorbuf
