// The C API of boolean_mask_update: thin calls of the C++ op inside `guarded` (the C++ op
// validates; on failure nothing is written).
#include "c_api/c_api_internal.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf::c_api {
namespace {

BooleanMaskUpdateOptions mask_update_options(int axis, void* stream) {
  BooleanMaskUpdateOptions options;
  options.axis = axis;
  options.stream = Stream{stream};
  return options;
}

BooleanMaskUpdateOptions mask_update_options(const tb_mask_update_options* c) {
  require(c, "options");
  require_struct_size(c->struct_size, {offsetof(tb_mask_update_options, device)},
                      sizeof(tb_mask_update_options), "options");
  BooleanMaskUpdateOptions options = mask_update_options(c->axis, c->stream);
  options.broadcast = c->broadcast != 0;
  take_stream_and_device(c, options);
  return options;
}

}  // namespace
}  // namespace tensorbuf::c_api

using namespace tensorbuf;
using namespace tensorbuf::c_api;

extern "C" {

tb_status tb_boolean_mask_update_in_place(tb_buffer* tensor, const tb_buffer* mask,
                                          const tb_buffer* updates, int axis,
                                          void* stream) noexcept {
  return call_op(
      __func__,
      [&](auto&... b) { boolean_mask_update_in_place(b..., mask_update_options(axis, stream)); },
      Arg{tensor, "tensor"}, Arg{mask, "mask"}, Arg{updates, "updates"});
}

tb_status tb_boolean_mask_update(const tb_buffer* tensor, const tb_buffer* mask,
                                 const tb_buffer* updates, int axis, void* stream,
                                 tb_buffer** out) noexcept {
  return call_op_publishing(
      __func__, out,
      [&](auto&... b) { return boolean_mask_update(b..., mask_update_options(axis, stream)); },
      Arg{tensor, "tensor"}, Arg{mask, "mask"}, Arg{updates, "updates"});
}

tb_status tb_boolean_mask_update_in_place_ex(tb_buffer* tensor, const tb_buffer* mask,
                                             const tb_buffer* updates,
                                             const tb_mask_update_options* options) noexcept {
  return call_op(
      __func__,
      [&](auto&... b) { boolean_mask_update_in_place(b..., mask_update_options(options)); },
      Arg{tensor, "tensor"}, Arg{mask, "mask"}, Arg{updates, "updates"});
}

tb_status tb_boolean_mask_update_ex(const tb_buffer* tensor, const tb_buffer* mask,
                                    const tb_buffer* updates, const tb_mask_update_options* options,
                                    tb_buffer** out) noexcept {
  return call_op_publishing(
      __func__, out,
      [&](auto&... b) { return boolean_mask_update(b..., mask_update_options(options)); },
      Arg{tensor, "tensor"}, Arg{mask, "mask"}, Arg{updates, "updates"});
}

}  // extern "C"
