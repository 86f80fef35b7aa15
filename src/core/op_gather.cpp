// gather: plan, pick the device and policy, allocate the output, run the backend, and turn a bad
// index into the spec's message (core/axis_indices.hpp).
#include "core/axis_indices.hpp"
#include "core/backend_run.hpp"
#include "core/capture.hpp"
#include "core/dispatch.hpp"
#include "core/error_macros.hpp"
#include "core/gather_backends.hpp"
#include "core/plan_gather.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf {

TensorBuffer gather(const TensorBuffer& params, const TensorBuffer& indices,
                    const GatherOptions& options) {
  core::GatherPlan plan = core::plan_gather(params, indices, options);
  const Device device = core::resolve_device(options.device, params);
  plan.policy = core::resolve_policy(options.out_of_bounds, device);
  core::reject_capture("gather", core::axis_index_capture_blocker(plan.policy), device,
                       options.stream);
  // Allocates nothing until the backend writes it, so a bad argument costs nothing.
  TensorBuffer out =
      TensorBuffer::create_uninitialized(Shape(core::gather_output_dims(plan)), plan.dtype);
  core::BackendRun backend(device, options.stream);
  core::GatherBuffers buffers;
  buffers.params = backend.read(params);
  buffers.indices = backend.read(indices);
  buffers.out = backend.overwrite(out);
  const core::AxisIndexResult result = backend.on_cuda()
                                           ? cuda::gather(plan, buffers, backend.cuda())
                                           : cpu::gather(plan, buffers);
  backend.finish();
  TENSORBUF_EXPECTS(result.applied(), InvalidArgumentError,
                    core::bad_axis_index_message(plan.indices_dims, result.first_bad_index,
                                                 result.bad_value, plan.axis, plan.params_dims));
  return out;
}

}  // namespace tensorbuf
