// substr: plan, pick the device, run the backend, and raise a first bad index with the spec's
// message (core/op_errors.hpp, the same for both backends).
#include <cstdint>
#include <optional>
#include <utility>

#include "core/backend_run.hpp"
#include "core/capture.hpp"
#include "core/dispatch.hpp"
#include "core/op_errors.hpp"
#include "core/op_substr.hpp"
#include "core/plan_substr.hpp"
#include "core/string_tensor_access.hpp"
#include "core/substr_backends.hpp"

namespace tensorbuf {
namespace core {

namespace {

// The plan after the capture check, bounded where the total cannot be read back (docs/capture.md,
// "substr outside a capture"): an eager output keeps its exact size.
SubstrPlan checked_for_capture(SubstrPlan plan, Device device, Stream stream) {
  reject_capture("substr", substr_capture_blocker(plan), device, stream);
  if (is_capturing(device, stream)) plan.chars_capacity = substr_chars_bound(plan);
  return plan;
}

}  // namespace

SubstrCall::SubstrCall(const StringTensor& input, const TensorBuffer& pos, const TensorBuffer& len,
                       SubstrPlan plan, Device device, Stream stream)
    : plan_(checked_for_capture(std::move(plan), device, stream)),
      out_offsets_(TensorBuffer::create_uninitialized(Shape{plan_.out_size + 1}, DataType::kInt64)),
      in_chars_(StringTensorAccess::chars_on(input, device)),
      backend_(device, stream) {
  buffers_.in_offsets = static_cast<const std::int64_t*>(backend_.read(input.offsets()));
  buffers_.in_chars = static_cast<const std::uint8_t*>(backend_.read(in_chars_));
  buffers_.pos = backend_.read(pos);
  buffers_.len = backend_.read(len);
  buffers_.out_offsets = static_cast<std::int64_t*>(backend_.overwrite(out_offsets_));
  allocate_chars_ = [this](std::int64_t total) {
    out_chars_ = TensorBuffer::create_uninitialized(Shape{total}, DataType::kUInt8);
    return static_cast<std::uint8_t*>(backend_.overwrite(*out_chars_));
  };
}

SubstrRun SubstrCall::finish(const SubstrResult& result) {
  backend_.finish();
  if (!result.applied()) return SubstrRun{std::nullopt, result};
  if (!out_chars_) out_chars_ = TensorBuffer::create_fixed_size(Shape{0}, DataType::kUInt8);
  // Bounded: out_chars holds plan.chars_capacity bytes, the offsets end at or below it.
  auto make = plan_.chars_capacity >= 0 ? &StringTensorAccess::make_bounded
                                        : &StringTensorAccess::make_unchecked;
  return SubstrRun{make(std::move(out_offsets_), std::move(*out_chars_), plan_.out_shape), result};
}

SubstrRun run_substr(const StringTensor& input, const TensorBuffer& pos, const TensorBuffer& len,
                     const SubstrOptions& options) {
  SubstrPlan plan = plan_substr(input, pos, len, options);
  const Device device = resolve_device(options.device, input.offsets());
  plan.policy = resolve_policy(options.out_of_bounds, device);
  SubstrCall call(input, pos, len, std::move(plan), device, options.stream);
  const SubstrResult result =
      call.backend().on_cuda()
          ? cuda::substr(call.plan(), call.buffers(), call.allocate_chars(), call.backend().cuda())
          : cpu::substr(call.plan(), call.buffers(), call.allocate_chars());
  return call.finish(result);
}

}  // namespace core

StringTensor substr(const StringTensor& input, const TensorBuffer& pos, const TensorBuffer& len,
                    const SubstrOptions& options) {
  core::SubstrRun run = core::run_substr(input, pos, len, options);
  // The backend named the element's string and pos; the string's bytes are read on the host.
  core::raise_if_rejected(input, run.result);
  return std::move(*run.out);
}

}  // namespace tensorbuf
