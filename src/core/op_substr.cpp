// substr: plan, pick the device, run the backend, and turn a first bad index into the spec's
// message (formatted here only, the same for both backends).
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/dispatch.hpp"
#include "core/dtype_dispatch.hpp"
#include "core/error_macros.hpp"
#include "core/plan_substr.hpp"
#include "core/storage.hpp"
#include "core/string_tensor_access.hpp"

namespace tensorbuf {
namespace {

constexpr std::size_t kMaxShownBytes = 64;

// Python's repr() of a bytes object: b'...' (or b"..." when the bytes hold ' and no "),
// \\, \t, \n, \r, \xhh for other bytes outside 0x20..0x7e. Longer than kMaxShownBytes: the
// first kMaxShownBytes bytes, then "...".
std::string python_bytes_repr(std::string_view bytes) {
  const bool truncated = bytes.size() > kMaxShownBytes;
  if (truncated) bytes = bytes.substr(0, kMaxShownBytes);
  const bool has_single = bytes.find('\'') != std::string_view::npos;
  const bool has_double = bytes.find('"') != std::string_view::npos;
  const char quote = has_single && !has_double ? '"' : '\'';
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "b";
  out += quote;
  for (const char ch : bytes) {
    const auto b = static_cast<unsigned char>(ch);
    if (ch == quote || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (ch == '\t') {
      out += "\\t";
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\r') {
      out += "\\r";
    } else if (b < 0x20 || b >= 0x7f) {
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 0xf];
    } else {
      out += ch;
    }
  }
  out += quote;
  if (truncated) out += "...";
  return out;
}

// "pos 6 out of range for string b'Hello' at index 0" (rule 5), read on the host.
std::string out_of_range_message(const core::SubstrPlan& plan, const StringTensor& input,
                                 const TensorBuffer& pos, std::int64_t flat) {
  std::int64_t in_i = 0;
  std::int64_t pos_i = 0;
  plan.map.map(flat, &in_i, &pos_i);
  const std::int64_t pos_value = core::dispatch_index_type(pos.data_type(), [&](auto tag) {
    using Index = typename decltype(tag)::type;
    return static_cast<std::int64_t>(pos.host<Index>()[pos_i]);
  });
  return core::str_cat("pos ", pos_value, " out of range for string ",
                       python_bytes_repr(input.at(in_i)), " at index ", flat);
}

}  // namespace

StringTensor substr(const StringTensor& input, const TensorBuffer& pos, const TensorBuffer& len,
                    const SubstrOptions& options) {
  core::SubstrPlan plan = core::plan_substr(input, pos, len, options);
  const Device device = core::resolve_device(options.device, input.offsets());
  plan.policy = core::resolve_policy(options.out_of_bounds, device);

  TensorBuffer out_offsets =
      TensorBuffer::create_uninitialized(Shape{plan.out_size + 1}, DataType::kInt64);
  std::optional<TensorBuffer> out_chars;
  core::SubstrArgs args;
  core::SubstrResult result;
  if (!device.is_cuda()) {
    args.in_offsets = input.offsets().host<std::int64_t>();
    args.in_chars = static_cast<const std::uint8_t*>(input.chars().host_bytes());
    args.pos = pos.host_bytes();
    args.len = len.host_bytes();
    args.out_offsets = out_offsets.overwrite_host<std::int64_t>();
    args.allocate_chars = [&](std::int64_t total) {
      out_chars = TensorBuffer::create_uninitialized(Shape{total}, DataType::kUInt8);
      return static_cast<std::uint8_t*>(out_chars->overwrite_host_bytes());
    };
    result = cpu::substr(plan, args);
  } else {
    const core::CudaContext ctx = core::cuda_context(device, options.stream);
    const core::Storage* touched[] = {&input.offsets().storage(), &input.chars().storage(),
                                      &pos.storage(), &len.storage(), &out_offsets.storage()};
    auto finish = [&] {
      for (const core::Storage* s : touched) s->finish_device_use(ctx.stream);
      if (out_chars) out_chars->storage().finish_device_use(ctx.stream);
    };
    try {
      args.in_offsets = static_cast<const std::int64_t*>(
          input.offsets().storage().device_read(ctx.device, ctx.stream));
      args.in_chars = static_cast<const std::uint8_t*>(
          input.chars().storage().device_read(ctx.device, ctx.stream));
      args.pos = pos.storage().device_read(ctx.device, ctx.stream);
      args.len = len.storage().device_read(ctx.device, ctx.stream);
      args.out_offsets = static_cast<std::int64_t*>(
          out_offsets.storage().device_write(ctx.device, ctx.stream, /*keep_contents=*/false));
      args.allocate_chars = [&](std::int64_t total) {
        out_chars = TensorBuffer::create_uninitialized(Shape{total}, DataType::kUInt8);
        return static_cast<std::uint8_t*>(
            out_chars->storage().device_write(ctx.device, ctx.stream, /*keep_contents=*/false));
      };
      result = cuda::substr(plan, args, ctx);
    } catch (...) {
      finish();
      throw;
    }
    finish();
  }
  if (result.first_bad_index >= 0) {
    throw InvalidArgumentError(out_of_range_message(plan, input, pos, result.first_bad_index));
  }
  if (!out_chars) out_chars = TensorBuffer::create_fixed_size(Shape{0}, DataType::kUInt8);
  return core::StringTensorAccess::make_unchecked(std::move(out_offsets), std::move(*out_chars),
                                                  plan.out_shape);
}

}  // namespace tensorbuf
