// gather: the op run (core/op_run.hpp) with its plan, its output and its buffers; a bad index
// raises the spec's message (core/op_errors.hpp).
#include "core/gather_backends.hpp"
#include "core/op_run.hpp"
#include "core/plan_gather.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf {

TensorBuffer gather(const TensorBuffer& params, const TensorBuffer& indices,
                    const GatherOptions& options) {
  core::GatherPlan plan = core::plan_gather(params, indices, options);
  const core::OpPlace at = core::place_op("gather", plan, options, params, [](const auto& p) {
    return core::axis_index_capture_blocker(p.policy);
  });
  TensorBuffer out =
      TensorBuffer::create_uninitialized(Shape(core::gather_output_dims(plan)), plan.dtype);
  core::run_op(
      at, plan,
      [&](core::BackendRun& backend, core::GatherBuffers& buffers) {
        buffers.params = backend.read(params);
        buffers.indices = backend.read(indices);
        buffers.out = backend.overwrite(out);
      },
      &cpu::gather, &cuda::gather);
  return out;
}

}  // namespace tensorbuf
