// scatter_elements (+ _in_place): the op run of an update (core/op_run.hpp) with its plan and
// its buffers; a bad index raises the spec's message (core/op_errors.hpp).
#include "core/elements_backends.hpp"
#include "core/op_run.hpp"
#include "core/plan_elements.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf {
namespace {

core::ScatterElementsPlan make_plan(const TensorBuffer& tensor, const TensorBuffer& indices,
                                    const TensorBuffer& updates,
                                    const ScatterElementsOptions& options, core::OpPlace& at) {
  core::ScatterElementsPlan plan = core::plan_scatter_elements(tensor, indices, updates, options);
  at = core::place_op("scatter_elements", plan, options, tensor,
                      [](const auto& p) { return core::axis_index_capture_blocker(p.policy); });
  return plan;
}

// Runs the plan into `out`, `tensor` itself in place (core::run_indexed_update).
void run(const core::ScatterElementsPlan& plan, core::OpPlace at, const TensorBuffer& tensor,
         const TensorBuffer& indices, const TensorBuffer& updates, TensorBuffer& out) {
  core::run_indexed_update(at, plan, tensor, indices, updates, out, &cpu::scatter_elements,
                           &cuda::scatter_elements);
}

}  // namespace

TensorBuffer scatter_elements(const TensorBuffer& tensor, const TensorBuffer& indices,
                              const TensorBuffer& updates, const ScatterElementsOptions& options) {
  core::OpPlace at;
  const core::ScatterElementsPlan plan = make_plan(tensor, indices, updates, options, at);
  return core::update_out_of_place(
      tensor, [&](TensorBuffer& out) { run(plan, at, tensor, indices, updates, out); });
}

void scatter_elements_in_place(TensorBuffer& tensor, const TensorBuffer& indices,
                               const TensorBuffer& updates, const ScatterElementsOptions& options) {
  core::OpPlace at;
  const core::ScatterElementsPlan plan = make_plan(tensor, indices, updates, options, at);
  core::update_in_place(at, tensor, {&indices, &updates}, [&](TensorBuffer& out) {
    run(plan, at, tensor, indices, updates, out);
  });
}

}  // namespace tensorbuf
