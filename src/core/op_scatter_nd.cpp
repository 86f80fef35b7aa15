// The public scatter functions: plan, pick the device and policy, allocate the output, run the
// backend, and turn a bad row into the spec's message.
#include <optional>

#include "core/backend_run.hpp"
#include "core/buffer_access.hpp"
#include "core/capture.hpp"
#include "core/dispatch.hpp"
#include "core/error_macros.hpp"
#include "core/plan_scatter_nd.hpp"
#include "core/scatter_nd_backends.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf {
namespace {

using core::ScatterNdBuffers;
using core::ScatterNdPlan;
using core::ScatterNdResult;
using core::ScatterOp;

void raise_if_bad(const ScatterNdPlan& plan, const ScatterNdResult& result) {
  if (result.first_bad_index >= 0 && plan.policy == OutOfBoundsPolicy::kError) {
    throw InvalidArgumentError(
        core::bad_row_message(plan, result.first_bad_index, result.bad_components));
  }
}

// Runs the op into `out` (out of place) or into `*in_place`. Inputs that alias the tensor
// being written are copied first, so a row never reads what another row wrote.
void run(ScatterOp op, const TensorBuffer& tensor, const TensorBuffer& indices_arg,
         const TensorBuffer& updates_arg, const ScatterOptions& options, TensorBuffer* out,
         TensorBuffer* in_place) {
  ScatterNdPlan plan = core::plan_scatter_nd(op, tensor, indices_arg, updates_arg);
  const Device device = core::resolve_device(options.device, tensor);
  plan.policy = core::resolve_policy(options.out_of_bounds, device);
  plan.deterministic = options.deterministic;
  const bool aliased = in_place != nullptr && (&indices_arg == in_place || &updates_arg == in_place);
  core::reject_capture("tensor_scatter_nd", core::scatter_nd_capture_blocker(plan, aliased), device,
                       options.stream);

  std::optional<TensorBuffer> indices_copy;
  std::optional<TensorBuffer> updates_copy;
  if (in_place != nullptr && &indices_arg == in_place) indices_copy = indices_arg.clone();
  if (in_place != nullptr && &updates_arg == in_place) updates_copy = updates_arg.clone();
  const TensorBuffer& indices = indices_copy ? *indices_copy : indices_arg;
  const TensorBuffer& updates = updates_copy ? *updates_copy : updates_arg;
  TensorBuffer& target = in_place != nullptr ? *in_place : *out;

  // In place, `tensor` is the output: read and written through one pointer. Under kError the
  // backend validates before it writes, so an error leaves the contents as they were.
  core::BackendRun backend(device, options.stream);
  ScatterNdBuffers buffers;
  buffers.indices = backend.read(indices);
  buffers.updates = backend.read(updates);
  if (in_place != nullptr) {
    buffers.out = backend.mutate(target);
    buffers.tensor = buffers.out;
  } else {
    buffers.tensor = backend.read(tensor);
    buffers.out = backend.overwrite(target);
  }
  const ScatterNdResult result = backend.on_cuda() ? cuda::scatter_nd(plan, buffers, backend.cuda())
                                                   : cpu::scatter_nd(plan, buffers);
  backend.finish();
  raise_if_bad(plan, result);
}

TensorBuffer run_out_of_place(ScatterOp op, const TensorBuffer& tensor, const TensorBuffer& indices,
                              const TensorBuffer& updates, const ScatterOptions& options) {
  // Allocates nothing until the backend writes it, so a bad argument costs nothing.
  TensorBuffer out =
      TensorBuffer::create_uninitialized(core::BufferAccess::shape(tensor), tensor.data_type());
  run(op, tensor, indices, updates, options, &out, nullptr);
  return out;
}

}  // namespace

#define TENSORBUF_DEFINE_SCATTER(name, op)                                           \
  TensorBuffer name(const TensorBuffer& tensor, const TensorBuffer& indices,         \
                    const TensorBuffer& updates, const ScatterOptions& options) {    \
    return run_out_of_place(op, tensor, indices, updates, options);                  \
  }                                                                                  \
  void name##_in_place(TensorBuffer& tensor, const TensorBuffer& indices,            \
                       const TensorBuffer& updates, const ScatterOptions& options) { \
    run(op, tensor, indices, updates, options, nullptr, &tensor);                    \
  }

TENSORBUF_DEFINE_SCATTER(tensor_scatter_nd_sub, ScatterOp::kSub)
TENSORBUF_DEFINE_SCATTER(tensor_scatter_nd_add, ScatterOp::kAdd)
TENSORBUF_DEFINE_SCATTER(tensor_scatter_nd_update, ScatterOp::kUpdate)
TENSORBUF_DEFINE_SCATTER(tensor_scatter_nd_min, ScatterOp::kMin)
TENSORBUF_DEFINE_SCATTER(tensor_scatter_nd_max, ScatterOp::kMax)

#undef TENSORBUF_DEFINE_SCATTER

}  // namespace tensorbuf
