// gather_elements: the op run (core/op_run.hpp) with its plan, its output and its buffers; a
// bad index raises the spec's message (core/op_errors.hpp).
#include "core/elements_backends.hpp"
#include "core/op_run.hpp"
#include "core/plan_elements.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf {

TensorBuffer gather_elements(const TensorBuffer& params, const TensorBuffer& indices,
                             const GatherOptions& options) {
  core::GatherElementsPlan plan = core::plan_gather_elements(params, indices, options);
  const core::OpPlace at =
      core::place_op("gather_elements", plan, options, params,
                     [](const auto& p) { return core::axis_index_capture_blocker(p.policy); });
  TensorBuffer out =
      TensorBuffer::create_uninitialized(core::BufferAccess::shape(indices), plan.dtype);
  core::run_op(
      at, plan,
      [&](core::BackendRun& backend, core::GatherElementsBuffers& buffers) {
        buffers.params = backend.read(params);
        buffers.indices = backend.read(indices);
        buffers.out = backend.overwrite(out);
      },
      &cpu::gather_elements, &cuda::gather_elements);
  return out;
}

}  // namespace tensorbuf
