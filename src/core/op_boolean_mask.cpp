// boolean_mask, boolean_mask_into and compress: plan, pick the device, run the backend. The
// sized forms read n back on CUDA (so they cannot be captured); the into form never waits.
#include <cstdint>
#include <optional>

#include "core/boolean_mask_backends.hpp"
#include "core/error_macros.hpp"
#include "core/op_run.hpp"
#include "core/plan_boolean_mask.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf {
namespace {

core::BooleanMaskResult run_backend(const core::BooleanMaskPlan& plan,
                                    core::BooleanMaskBuffers buffers, core::BackendRun& backend,
                                    const core::AllocateMasked& allocate) {
  return backend.on_cuda() ? cuda::boolean_mask(plan, buffers, allocate, backend.cuda())
                           : cpu::boolean_mask(plan, buffers, allocate);
}

// The sized form: the output is allocated for n rows once the backend knows n.
TensorBuffer run_sized(const core::BooleanMaskPlan& plan, core::OpPlace at,
                       const TensorBuffer& tensor, const TensorBuffer& mask) {
  core::BackendRun backend(at.device, at.stream);
  core::BooleanMaskBuffers buffers;
  buffers.tensor = backend.read(tensor);
  buffers.mask = static_cast<const std::uint8_t*>(backend.read(mask));
  std::optional<TensorBuffer> out;
  const Shape shape = tensor.shape();
  const core::AllocateMasked allocate = [&](std::int64_t n) {
    out.emplace(TensorBuffer::create_uninitialized(core::boolean_mask_output_shape(plan, shape, n),
                                                   plan.dtype));
    return backend.overwrite(*out);
  };
  run_backend(plan, buffers, backend, allocate);
  backend.finish();
  return std::move(*out);
}

}  // namespace

TensorBuffer boolean_mask(const TensorBuffer& tensor, const TensorBuffer& mask,
                          const BooleanMaskOptions& options) {
  core::BooleanMaskPlan plan = core::plan_boolean_mask(tensor, mask, options);
  const core::OpPlace at =
      core::place_op("boolean_mask", plan, options, tensor, &core::boolean_mask_capture_blocker);
  return run_sized(plan, at, tensor, mask);
}

void boolean_mask_into(const TensorBuffer& tensor, const TensorBuffer& mask, TensorBuffer& out,
                       TensorBuffer& count, const BooleanMaskOptions& options) {
  core::BooleanMaskPlan plan = core::plan_boolean_mask_into(tensor, mask, out, count, options);
  // The pass reads the tensor and the mask while it writes: outputs may not overlap them.
  for (const TensorBuffer* input : {&tensor, &mask}) {
    TENSORBUF_EXPECTS(!core::shares_memory(out, *input) && !core::shares_memory(count, *input),
                      InvalidArgumentError,
                      core::str_cat("boolean_mask_into: out and count may not share memory with ",
                                    input == &tensor ? "tensor" : "mask", "."));
  }
  TENSORBUF_EXPECTS(!core::shares_memory(out, count), InvalidArgumentError,
                    "boolean_mask_into: out and count may not share memory.");
  const core::OpPlace at = core::place_op("boolean_mask_into", plan, options, tensor,
                                          &core::boolean_mask_into_capture_blocker);
  core::BackendRun backend(at.device, at.stream);
  core::BooleanMaskBuffers buffers;
  buffers.tensor = backend.read(tensor);
  buffers.mask = static_cast<const std::uint8_t*>(backend.read(mask));
  // Rows past min(n, capacity) keep their values: the output is updated, not overwritten.
  buffers.out = out.size_bytes() == 0 ? nullptr : backend.mutate(out);
  buffers.count = static_cast<std::int64_t*>(backend.overwrite(count));
  run_backend(plan, buffers, backend, nullptr);
  backend.finish();
}

TensorBuffer compress(const TensorBuffer& input, const TensorBuffer& condition,
                      const CompressOptions& options) {
  core::BooleanMaskPlan plan = core::plan_compress(input, condition, options);
  const core::OpPlace at =
      core::place_op("compress", plan, options, input, &core::boolean_mask_capture_blocker);
  return run_sized(plan, at, input, condition);
}

}  // namespace tensorbuf
