// substr: plan, pick the device, run the backend, and raise a first bad index with the spec's
// message (core/op_errors.hpp, the same for both backends).
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/backend_run.hpp"
#include "core/capture.hpp"
#include "core/dispatch.hpp"
#include "core/error_macros.hpp"
#include "core/op_errors.hpp"
#include "core/op_substr.hpp"
#include "core/plan_substr.hpp"
#include "core/string_tensor_access.hpp"
#include "core/substr_backends.hpp"

namespace tensorbuf {
namespace core {

SubstrRun run_substr(const StringTensor& input, const TensorBuffer& pos, const TensorBuffer& len,
                     const SubstrOptions& options) {
  core::SubstrPlan plan = core::plan_substr(input, pos, len, options);
  const Device device = core::resolve_device(options.device, input.offsets());
  plan.policy = core::resolve_policy(options.out_of_bounds, device);
  return run_planned_substr(input, pos, len, std::move(plan), device, options.stream,
                            &cuda::substr);
}

SubstrRun run_planned_substr(const StringTensor& input, const TensorBuffer& pos,
                             const TensorBuffer& len, SubstrPlan plan, Device device, Stream stream,
                             const CudaSubstr& cuda_substr) {
  core::reject_capture("substr", core::substr_capture_blocker(plan), device, stream);
  // The bounded form only where the total cannot be read back (docs/capture.md, "substr
  // outside a capture"): an eager output keeps its exact size.
  if (core::is_capturing(device, stream)) plan.chars_capacity = core::substr_chars_bound(plan);

  TensorBuffer out_offsets =
      TensorBuffer::create_uninitialized(Shape{plan.out_size + 1}, DataType::kInt64);
  std::optional<TensorBuffer> out_chars;
  const TensorBuffer& in_chars = core::StringTensorAccess::chars_on(input, device);
  core::BackendRun backend(device, stream);
  core::SubstrBuffers buffers;
  buffers.in_offsets = static_cast<const std::int64_t*>(backend.read(input.offsets()));
  buffers.in_chars = static_cast<const std::uint8_t*>(backend.read(in_chars));
  buffers.pos = backend.read(pos);
  buffers.len = backend.read(len);
  buffers.out_offsets = static_cast<std::int64_t*>(backend.overwrite(out_offsets));
  const core::AllocateChars allocate_chars = [&](std::int64_t total) {
    out_chars = TensorBuffer::create_uninitialized(Shape{total}, DataType::kUInt8);
    return static_cast<std::uint8_t*>(backend.overwrite(*out_chars));
  };
  const core::SubstrResult result = backend.on_cuda()
                                        ? cuda_substr(plan, buffers, allocate_chars, backend.cuda())
                                        : cpu::substr(plan, buffers, allocate_chars);
  backend.finish();
  if (result.first_bad_index >= 0) return SubstrRun{std::nullopt, result};
  if (!out_chars) out_chars = TensorBuffer::create_fixed_size(Shape{0}, DataType::kUInt8);
  // Bounded: out_chars holds plan.chars_capacity bytes, the offsets end at or below it.
  auto make = plan.chars_capacity >= 0 ? &core::StringTensorAccess::make_bounded
                                       : &core::StringTensorAccess::make_unchecked;
  return SubstrRun{make(std::move(out_offsets), std::move(*out_chars), plan.out_shape), result};
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
