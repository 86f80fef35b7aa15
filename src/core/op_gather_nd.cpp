// gather_nd: the op run (core/op_run.hpp) with its plan, its output and its buffers; a bad row
// raises the scatter ops' message (core/op_errors.hpp).
#include "core/gather_nd_backends.hpp"
#include "core/op_run.hpp"
#include "core/plan_gather_nd.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf {

TensorBuffer gather_nd(const TensorBuffer& params, const TensorBuffer& indices,
                       const GatherOptions& options) {
  core::GatherNdPlan plan = core::plan_gather_nd(params, indices, options);
  const core::OpPlace at =
      core::place_op("gather_nd", plan, options, params, &core::gather_nd_capture_blocker);
  TensorBuffer out =
      TensorBuffer::create_uninitialized(Shape(core::gather_nd_output_dims(plan)), plan.dtype);
  core::run_op(
      at, plan,
      [&](core::BackendRun& backend, core::GatherNdBuffers& buffers) {
        buffers.params = backend.read(params);
        buffers.indices = backend.read(indices);
        buffers.out = backend.overwrite(out);
      },
      &cpu::gather_nd, &cuda::gather_nd);
  return out;
}

}  // namespace tensorbuf
