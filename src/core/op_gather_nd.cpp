// gather_nd: plan, pick the device and policy, allocate the output, run the backend, and turn a
// bad row into the scatter ops' message (core/nd_indices.hpp).
#include "core/backend_run.hpp"
#include "core/capture.hpp"
#include "core/dispatch.hpp"
#include "core/error_macros.hpp"
#include "core/gather_nd_backends.hpp"
#include "core/nd_indices.hpp"
#include "core/plan_gather_nd.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf {

TensorBuffer gather_nd(const TensorBuffer& params, const TensorBuffer& indices,
                       const GatherOptions& options) {
  core::GatherNdPlan plan = core::plan_gather_nd(params, indices, options);
  const Device device = core::resolve_device(options.device, params);
  plan.policy = core::resolve_policy(options.out_of_bounds, device);
  core::reject_capture("gather_nd", core::gather_nd_capture_blocker(plan), device, options.stream);
  // Allocates nothing until the backend writes it, so a bad argument costs nothing.
  TensorBuffer out =
      TensorBuffer::create_uninitialized(Shape(core::gather_nd_output_dims(plan)), plan.dtype);
  core::BackendRun backend(device, options.stream);
  core::GatherNdBuffers buffers;
  buffers.params = backend.read(params);
  buffers.indices = backend.read(indices);
  buffers.out = backend.overwrite(out);
  const core::GatherNdResult result = backend.on_cuda()
                                          ? cuda::gather_nd(plan, buffers, backend.cuda())
                                          : cpu::gather_nd(plan, buffers);
  backend.finish();
  TENSORBUF_EXPECTS(
      result.applied(), InvalidArgumentError,
      core::bad_index_message(plan.indices_dims, result.first_bad_index, result.bad_components,
                              core::gather_nd_indexed_shape(plan)));
  return out;
}

}  // namespace tensorbuf
