// The public scatter functions: plan, pick the device and policy, allocate the output, run the
// backend, and turn a bad row into the spec's message.
#include "core/backend_run.hpp"
#include "core/buffer_access.hpp"
#include "core/capture.hpp"
#include "core/dispatch.hpp"
#include "core/error_macros.hpp"
#include "core/in_place.hpp"
#include "core/op_errors.hpp"
#include "core/plan_scatter_nd.hpp"
#include "core/scatter_nd_backends.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf {
namespace {

using core::ScatterNdBuffers;
using core::ScatterNdPlan;
using core::ScatterNdResult;
using core::ScatterOp;

ScatterNdPlan make_plan(ScatterOp op, const TensorBuffer& tensor, const TensorBuffer& indices,
                        const TensorBuffer& updates, const ScatterOptions& options,
                        Device& device) {
  ScatterNdPlan plan = core::plan_scatter_nd(op, tensor, indices, updates);
  device = core::resolve_device(options.device, tensor);
  plan.policy = core::resolve_policy(options.out_of_bounds, device);
  plan.deterministic = options.deterministic;
  core::reject_capture("tensor_scatter_nd", core::scatter_nd_capture_blocker(plan), device,
                       options.stream);
  return plan;
}

// Runs the plan into `out`, which is `tensor` itself in place (then no input shares its
// memory: core::run_in_place). In place under kError the backend validates before it writes,
// so an error leaves the contents as they were.
void run(const ScatterNdPlan& plan, Device device, Stream stream, const TensorBuffer& tensor,
         const TensorBuffer& indices, const TensorBuffer& updates, TensorBuffer& out) {
  core::BackendRun backend(device, stream);
  ScatterNdBuffers buffers;
  buffers.indices = backend.read(indices);
  buffers.updates = backend.read(updates);
  if (&out == &tensor) {
    buffers.out = backend.mutate(out);
    buffers.tensor = buffers.out;
  } else {
    buffers.tensor = backend.read(tensor);
    buffers.out = backend.overwrite(out);
  }
  const ScatterNdResult result = backend.on_cuda() ? cuda::scatter_nd(plan, buffers, backend.cuda())
                                                   : cpu::scatter_nd(plan, buffers);
  backend.finish();
  core::raise_if_rejected(plan, result);
}

TensorBuffer scatter_out_of_place(ScatterOp op, const TensorBuffer& tensor,
                                  const TensorBuffer& indices, const TensorBuffer& updates,
                                  const ScatterOptions& options) {
  Device device;
  const ScatterNdPlan planned = make_plan(op, tensor, indices, updates, options, device);
  // Allocates nothing until the backend writes it, so a bad argument costs nothing.
  TensorBuffer out =
      TensorBuffer::create_uninitialized(core::BufferAccess::shape(tensor), tensor.data_type());
  run(planned, device, options.stream, tensor, indices, updates, out);
  return out;
}

void scatter_in_place(ScatterOp op, TensorBuffer& tensor, const TensorBuffer& indices,
                      const TensorBuffer& updates, const ScatterOptions& options) {
  Device device;
  const ScatterNdPlan planned = make_plan(op, tensor, indices, updates, options, device);
  const bool aliased = core::shares_memory(tensor, indices) || core::shares_memory(tensor, updates);
  core::run_in_place(tensor, aliased, device, options.stream, [&](TensorBuffer& out) {
    run(planned, device, options.stream, tensor, indices, updates, out);
  });
}

}  // namespace

#define TENSORBUF_DEFINE_SCATTER(name, op, what)                                              \
  TensorBuffer tensor_scatter_nd_##name(const TensorBuffer& tensor, const TensorBuffer& indices, \
                                        const TensorBuffer& updates,                            \
                                        const ScatterOptions& options) {                        \
    return scatter_out_of_place(ScatterOp::op, tensor, indices, updates, options);              \
  }                                                                                             \
  void tensor_scatter_nd_##name##_in_place(TensorBuffer& tensor, const TensorBuffer& indices,   \
                                           const TensorBuffer& updates,                         \
                                           const ScatterOptions& options) {                     \
    scatter_in_place(ScatterOp::op, tensor, indices, updates, options);                         \
  }

TENSORBUF_SCATTER_COMBINES(TENSORBUF_DEFINE_SCATTER)

#undef TENSORBUF_DEFINE_SCATTER

}  // namespace tensorbuf
