// The C API of boolean_mask, boolean_mask_into and compress: thin calls of the C++ ops inside
// `guarded` (the C++ op validates; on failure nothing is written).
#include "c_api/c_api_internal.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf::c_api {
namespace {

BooleanMaskOptions boolean_mask_options(const tb_boolean_mask_options* c) {
  BooleanMaskOptions options;
  if (c == nullptr) return options;
  require_struct_size(c->struct_size, {}, sizeof(tb_boolean_mask_options), "options");
  options.axis = c->axis;
  take_stream_and_device(c, options);
  return options;
}

CompressOptions compress_options(const tb_compress_options* c) {
  CompressOptions options;
  if (c == nullptr) return options;
  require_struct_size(c->struct_size, {}, sizeof(tb_compress_options), "options");
  if (c->has_axis != 0) options.axis = c->axis;
  take_stream_and_device(c, options);
  return options;
}

}  // namespace
}  // namespace tensorbuf::c_api

using namespace tensorbuf;
using namespace tensorbuf::c_api;

extern "C" {

tb_status tb_boolean_mask(const tb_buffer* tensor, const tb_buffer* mask,
                          const tb_boolean_mask_options* options, tb_buffer** out) noexcept {
  return call_op_publishing(
      __func__, out, [&](auto&... b) { return boolean_mask(b..., boolean_mask_options(options)); },
      Arg{tensor, "tensor"}, Arg{mask, "mask"});
}

tb_status tb_boolean_mask_into(const tb_buffer* tensor, const tb_buffer* mask, tb_buffer* out,
                               tb_buffer* count, const tb_boolean_mask_options* options) noexcept {
  return call_op(
      __func__, [&](auto&... b) { boolean_mask_into(b..., boolean_mask_options(options)); },
      Arg{tensor, "tensor"}, Arg{mask, "mask"}, Arg{out, "out"}, Arg{count, "count"});
}

tb_status tb_compress(const tb_buffer* input, const tb_buffer* condition,
                      const tb_compress_options* options, tb_buffer** out) noexcept {
  return call_op_publishing(
      __func__, out, [&](auto&... b) { return compress(b..., compress_options(options)); },
      Arg{input, "input"}, Arg{condition, "condition"});
}

}  // extern "C"
