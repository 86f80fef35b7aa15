// The public scatter functions: the op run of an update (core/op_run.hpp) with the combine's
// plan and the buffers; a bad row raises the spec's message (core/op_errors.hpp).
#include "core/op_run.hpp"
#include "core/plan_scatter_nd.hpp"
#include "core/scatter_nd_backends.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf {
namespace {

using core::ScatterNdPlan;
using core::ScatterOp;

ScatterNdPlan make_plan(ScatterOp op, const TensorBuffer& tensor, const TensorBuffer& indices,
                        const TensorBuffer& updates, const ScatterOptions& options,
                        core::OpPlace& at) {
  ScatterNdPlan plan = core::plan_scatter_nd(op, tensor, indices, updates);
  at = core::place_op("tensor_scatter_nd", plan, options, tensor,
                      &core::scatter_nd_capture_blocker);
  return plan;
}

// Runs the plan into `out`, `tensor` itself in place (core::run_indexed_update).
void run(const ScatterNdPlan& plan, core::OpPlace at, const TensorBuffer& tensor,
         const TensorBuffer& indices, const TensorBuffer& updates, TensorBuffer& out) {
  core::run_indexed_update(at, plan, tensor, indices, updates, out, &cpu::scatter_nd,
                           &cuda::scatter_nd);
}

TensorBuffer scatter_out_of_place(ScatterOp op, const TensorBuffer& tensor,
                                  const TensorBuffer& indices, const TensorBuffer& updates,
                                  const ScatterOptions& options) {
  core::OpPlace at;
  const ScatterNdPlan plan = make_plan(op, tensor, indices, updates, options, at);
  return core::update_out_of_place(
      tensor, [&](TensorBuffer& out) { run(plan, at, tensor, indices, updates, out); });
}

void scatter_in_place(ScatterOp op, TensorBuffer& tensor, const TensorBuffer& indices,
                      const TensorBuffer& updates, const ScatterOptions& options) {
  core::OpPlace at;
  const ScatterNdPlan plan = make_plan(op, tensor, indices, updates, options, at);
  core::update_in_place(at, tensor, {&indices, &updates}, [&](TensorBuffer& out) {
    run(plan, at, tensor, indices, updates, out);
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
