// boolean_mask_update and boolean_mask_update_in_place: the op run of an update
// (core/op_run.hpp) with its plan and its buffers; a count that does not fit the updates
// raises the spec's error (core/op_errors.hpp).
#include <cstdint>

#include "core/boolean_mask_update_backends.hpp"
#include "core/op_run.hpp"
#include "core/plan_boolean_mask_update.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf {
namespace {

core::BooleanMaskUpdatePlan make_plan(const TensorBuffer& tensor, const TensorBuffer& mask,
                                      const TensorBuffer& updates,
                                      const BooleanMaskUpdateOptions& options, core::OpPlace& at) {
  core::BooleanMaskUpdatePlan plan = core::plan_boolean_mask_update(tensor, mask, updates, options);
  at = core::place_op("boolean_mask_update", plan, options, tensor,
                      &core::mask_update_capture_blocker);
  return plan;
}

// Runs the plan into `out`, `tensor` itself in place: counted before writing, so an error
// leaves the tensor as it was (mutate only syncs and copies caller memory, it changes no value).
void run(const core::BooleanMaskUpdatePlan& plan, core::OpPlace at, const TensorBuffer& tensor,
         const TensorBuffer& mask, const TensorBuffer& updates, TensorBuffer& out) {
  core::run_op(
      at, plan,
      [&](core::BackendRun& backend, core::BooleanMaskUpdateBuffers& buffers) {
        buffers.mask = static_cast<const std::uint8_t*>(backend.read(mask));
        buffers.updates = backend.read(updates);
        core::bind_update(backend, buffers, tensor, out);
      },
      &cpu::boolean_mask_update, &cuda::boolean_mask_update);
}

}  // namespace

TensorBuffer boolean_mask_update(const TensorBuffer& tensor, const TensorBuffer& mask,
                                 const TensorBuffer& updates,
                                 const BooleanMaskUpdateOptions& options) {
  core::OpPlace at;
  const core::BooleanMaskUpdatePlan plan = make_plan(tensor, mask, updates, options, at);
  return core::update_out_of_place(
      tensor, [&](TensorBuffer& out) { run(plan, at, tensor, mask, updates, out); });
}

void boolean_mask_update_in_place(TensorBuffer& tensor, const TensorBuffer& mask,
                                  const TensorBuffer& updates,
                                  const BooleanMaskUpdateOptions& options) {
  core::OpPlace at;
  const core::BooleanMaskUpdatePlan plan = make_plan(tensor, mask, updates, options, at);
  // `tensor` may also be the mask or the updates (NumPy's `t[t] = u`, `t[m] = t`).
  core::update_in_place(at, tensor, {&mask, &updates}, [&](TensorBuffer& out) {
    run(plan, at, tensor, mask, updates, out);
  });
}

}  // namespace tensorbuf
