// gather_elements: plan, pick the device and policy, allocate the output, run the backend, and
// turn a bad index into the spec's message (core/axis_indices.hpp).
#include "core/axis_indices.hpp"
#include "core/backend_run.hpp"
#include "core/buffer_access.hpp"
#include "core/capture.hpp"
#include "core/dispatch.hpp"
#include "core/elements_backends.hpp"
#include "core/error_macros.hpp"
#include "core/plan_elements.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf {

TensorBuffer gather_elements(const TensorBuffer& params, const TensorBuffer& indices,
                             const GatherOptions& options) {
  core::GatherElementsPlan plan = core::plan_gather_elements(params, indices, options);
  const Device device = core::resolve_device(options.device, params);
  plan.policy = core::resolve_policy(options.out_of_bounds, device);
  core::reject_capture("gather_elements", core::axis_index_capture_blocker(plan.policy), device,
                       options.stream);
  // Allocates nothing until the backend writes it, so a bad argument costs nothing.
  TensorBuffer out =
      TensorBuffer::create_uninitialized(core::BufferAccess::shape(indices), plan.dtype);
  core::BackendRun backend(device, options.stream);
  core::GatherElementsBuffers buffers;
  buffers.params = backend.read(params);
  buffers.indices = backend.read(indices);
  buffers.out = backend.overwrite(out);
  const core::AxisIndexResult result = backend.on_cuda()
                                           ? cuda::gather_elements(plan, buffers, backend.cuda())
                                           : cpu::gather_elements(plan, buffers);
  backend.finish();
  TENSORBUF_EXPECTS(result.applied(), InvalidArgumentError,
                    core::bad_axis_index_message(plan.layout.indices_dims, result.first_bad_index,
                                                 result.bad_value, plan.layout.axis,
                                                 plan.layout.tensor_dims));
  return out;
}

}  // namespace tensorbuf
