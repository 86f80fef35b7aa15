// boolean_mask_update and boolean_mask_update_in_place: plan, pick the device, run the backend,
// turn a count mismatch into the spec's error.
#include <cstdint>
#include <cstring>

#include "core/dispatch.hpp"
#include "core/error_macros.hpp"
#include "core/plan_boolean_mask_update.hpp"
#include "core/storage.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf {
namespace {

// Records the end of this op's device work on every buffer it touched, also when the backend
// threw (later readers and other streams wait on that event).
class FinishDeviceUse {
 public:
  FinishDeviceUse(core::StreamHandle stream, const TensorBuffer* a, const TensorBuffer* b,
                  const TensorBuffer* c, const TensorBuffer* d)
      : stream_(stream), buffers_{a, b, c, d} {}
  FinishDeviceUse(const FinishDeviceUse&) = delete;
  FinishDeviceUse& operator=(const FinishDeviceUse&) = delete;
  ~FinishDeviceUse() {
    for (const TensorBuffer* buffer : buffers_) {
      if (buffer != nullptr) buffer->storage().finish_device_use(stream_);
    }
  }

 private:
  core::StreamHandle stream_;
  const TensorBuffer* buffers_[4];
};

// Runs the plan on `device`, writing `out` (which may be `tensor`: in place). Throws the
// n-dependent shape error without having written anything.
void run(const core::BooleanMaskUpdatePlan& plan, Device device, Stream stream,
         const TensorBuffer& tensor, const TensorBuffer& mask, const TensorBuffer& updates,
         TensorBuffer& out) {
  const bool in_place = &out == &tensor;
  core::MaskUpdateResult result;
  if (!device.is_cuda()) {
    core::MaskUpdateBuffers buffers;
    buffers.mask = static_cast<const std::uint8_t*>(mask.host_bytes());
    buffers.updates = updates.host_bytes();
    if (in_place) {
      // Counted before writing, so an error leaves the tensor as it was; mutable_host_bytes
      // only syncs (and copies caller memory), it changes no value.
      buffers.out = out.mutable_host_bytes();
      buffers.tensor = buffers.out;
    } else {
      buffers.tensor = tensor.host_bytes();
      buffers.out = out.overwrite_host_bytes();
    }
    result = cpu::boolean_mask_update(plan, buffers);
  } else {
    const core::CudaContext context = core::cuda_context(device, stream);
    core::MaskUpdateBuffers buffers;
    FinishDeviceUse finish(context.stream, in_place ? nullptr : &tensor, &mask, &updates, &out);
    buffers.mask = static_cast<const std::uint8_t*>(
        mask.storage().device_read(context.device, context.stream));
    buffers.updates = updates.storage().device_read(context.device, context.stream);
    if (in_place) {
      buffers.out = out.storage().device_write(context.device, context.stream, true);
      buffers.tensor = buffers.out;
    } else {
      buffers.tensor = tensor.storage().device_read(context.device, context.stream);
      buffers.out = out.storage().device_write(context.device, context.stream, false);
    }
    result = cuda::boolean_mask_update(plan, buffers, context);
  }
  if (!result.applied) core::raise_mask_update_shape_error(plan, result.count);
}

bool shares_storage(const TensorBuffer& a, const TensorBuffer& b) {
  return &a.storage() == &b.storage();
}

}  // namespace

TensorBuffer boolean_mask_update(const TensorBuffer& tensor, const TensorBuffer& mask,
                                 const TensorBuffer& updates,
                                 const BooleanMaskUpdateOptions& options) {
  const core::BooleanMaskUpdatePlan plan =
      core::plan_boolean_mask_update(tensor, mask, updates, options);
  const Device device = core::resolve_device(options.device, tensor);
  TensorBuffer out = TensorBuffer::create_uninitialized(tensor.shape(), tensor.data_type());
  run(plan, device, options.stream, tensor, mask, updates, out);
  return out;
}

void boolean_mask_update_in_place(TensorBuffer& tensor, const TensorBuffer& mask,
                                  const TensorBuffer& updates,
                                  const BooleanMaskUpdateOptions& options) {
  const core::BooleanMaskUpdatePlan plan =
      core::plan_boolean_mask_update(tensor, mask, updates, options);
  const Device device = core::resolve_device(options.device, tensor);
  if (!shares_storage(tensor, mask) && !shares_storage(tensor, updates)) {
    run(plan, device, options.stream, tensor, mask, updates, tensor);
    return;
  }
  // `tensor` is also the mask or the updates (NumPy's `t[t] = u`, `t[m] = t`): the writes
  // would race with the reads, so compute out of place and copy the result back.
  TensorBuffer result = TensorBuffer::create_uninitialized(tensor.shape(), tensor.data_type());
  run(plan, device, options.stream, tensor, mask, updates, result);
  const std::size_t bytes = tensor.size_bytes();
  if (!device.is_cuda()) {
    if (bytes != 0) std::memcpy(tensor.overwrite_host_bytes(), result.host_bytes(), bytes);
    return;
  }
  const core::CudaContext context = core::cuda_context(device, options.stream);
  FinishDeviceUse finish(context.stream, &result, &tensor, nullptr, nullptr);
  const void* src = result.storage().device_read(context.device, context.stream);
  void* dst = tensor.storage().device_write(context.device, context.stream, false);
  if (bytes != 0)
    context.memory->copy_device_to_device(dst, src, bytes, context.device, context.stream);
}

}  // namespace tensorbuf
