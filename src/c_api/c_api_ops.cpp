// The C API's ops: the scatters (one set of four functions per combine of the op table,
// tensorbuf/op_table.hpp), boolean_mask_update and substr, each a thin call of the C++ op inside
// `guarded` (the C++ op validates; on failure nothing is written).
#include <type_traits>
#include <utility>

#include "c_api/c_api_internal.hpp"
#include "core/buffer_access.hpp"
#include "core/error_macros.hpp"
#include "core/string_tensor_access.hpp"
#include "tensorbuf/op_table.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf::c_api {
namespace {

ScatterOptions scatter_options(const tb_oob& oob, void* stream) {  // by reference: raw_value
  ScatterOptions options;
  options.out_of_bounds = to_policy(raw_value(oob));
  options.stream = Stream{stream};
  return options;
}

ScatterOptions scatter_options(const tb_scatter_options* c) {
  require(c, "options");
  require_struct_size(c->struct_size, {offsetof(tb_scatter_options, device)},
                      sizeof(tb_scatter_options), "options");
  ScatterOptions options = scatter_options(c->oob, c->stream);
  options.deterministic = c->deterministic != 0;
  if (TENSORBUF_C_HAS_FIELD(c, tb_scatter_options, device)) {
    options.device = to_optional_device(c->device);
  }
  return options;
}

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
  if (TENSORBUF_C_HAS_FIELD(c, tb_mask_update_options, device)) {
    options.device = to_optional_device(c->device);
  }
  return options;
}

SubstrOptions substr_options(const tb_substr_options* c) {
  SubstrOptions options;
  if (c == nullptr) return options;
  require_struct_size(c->struct_size, {offsetof(tb_substr_options, device)},
                      sizeof(tb_substr_options), "options");
  switch (raw_value(c->unit)) {
    case TB_UNIT_BYTE:
      options.unit = SubstrUnit::kByte;
      break;
    case TB_UNIT_UTF8_CHAR:
      options.unit = SubstrUnit::kUtf8Char;
      break;
    default:
      throw InvalidArgumentError(core::str_cat("unknown tb_substr_unit ", raw_value(c->unit)));
  }
  options.out_of_bounds = to_policy(raw_value(c->oob));
  options.stream = Stream{c->stream};
  if (TENSORBUF_C_HAS_FIELD(c, tb_substr_options, device)) {
    options.device = to_optional_device(c->device);
  }
  return options;
}

}  // namespace
}  // namespace tensorbuf::c_api

using namespace tensorbuf;
using namespace tensorbuf::c_api;

// Every combine of the op table has the four functions c_api.h declares: checked here, before
// the definitions below could declare them, so a table line the header lacks (or declares with
// another signature) stops the build.
using ScatterInPlaceC = tb_status (*)(tb_buffer*, const tb_buffer*, const tb_buffer*, tb_oob,
                                      void*) noexcept;
using ScatterC = tb_status (*)(const tb_buffer*, const tb_buffer*, const tb_buffer*, tb_oob, void*,
                               tb_buffer**) noexcept;
using ScatterInPlaceExC = tb_status (*)(tb_buffer*, const tb_buffer*, const tb_buffer*,
                                        const tb_scatter_options*) noexcept;
using ScatterExC = tb_status (*)(const tb_buffer*, const tb_buffer*, const tb_buffer*,
                                 const tb_scatter_options*, tb_buffer**) noexcept;
#define TB_REQUIRE_DECLARED_(name, op, what)                                                   \
  static_assert(                                                                               \
      std::is_same_v<decltype(&tb_tensor_scatter_nd_##name##_in_place), ScatterInPlaceC>,      \
      "c_api.h declares tb_tensor_scatter_nd_" #name "_in_place");                             \
  static_assert(std::is_same_v<decltype(&tb_tensor_scatter_nd_##name), ScatterC>,              \
                "c_api.h declares tb_tensor_scatter_nd_" #name);                               \
  static_assert(                                                                               \
      std::is_same_v<decltype(&tb_tensor_scatter_nd_##name##_in_place_ex), ScatterInPlaceExC>, \
      "c_api.h declares tb_tensor_scatter_nd_" #name "_in_place_ex");                          \
  static_assert(std::is_same_v<decltype(&tb_tensor_scatter_nd_##name##_ex), ScatterExC>,       \
                "c_api.h declares tb_tensor_scatter_nd_" #name "_ex");
TENSORBUF_SCATTER_COMBINES(TB_REQUIRE_DECLARED_)
#undef TB_REQUIRE_DECLARED_

// The four C functions of one combine: the plain forms take (oob, stream), the _ex forms the
// options struct.
#define TB_DEFINE_SCATTER_(name, op, what)                                                        \
  tb_status tb_tensor_scatter_nd_##name##_in_place(tb_buffer* tensor, const tb_buffer* indices,   \
                                                   const tb_buffer* updates, tb_oob oob,          \
                                                   void* stream) noexcept {                       \
    return call_op(                                                                               \
        __func__,                                                                                 \
        [&](auto&... b) {                                                                         \
          tensor_scatter_nd_##name##_in_place(b..., scatter_options(oob, stream));                \
        },                                                                                        \
        Arg{tensor, "tensor"}, Arg{indices, "indices"}, Arg{updates, "updates"});                 \
  }                                                                                               \
  tb_status tb_tensor_scatter_nd_##name(const tb_buffer* tensor, const tb_buffer* indices,        \
                                        const tb_buffer* updates, tb_oob oob, void* stream,       \
                                        tb_buffer** out) noexcept {                               \
    return call_op_publishing(                                                                    \
        __func__, out,                                                                            \
        [&](auto&... b) { return tensor_scatter_nd_##name(b..., scatter_options(oob, stream)); }, \
        Arg{tensor, "tensor"}, Arg{indices, "indices"}, Arg{updates, "updates"});                 \
  }                                                                                               \
  tb_status tb_tensor_scatter_nd_##name##_in_place_ex(                                            \
      tb_buffer* tensor, const tb_buffer* indices, const tb_buffer* updates,                      \
      const tb_scatter_options* options) noexcept {                                               \
    return call_op(                                                                               \
        __func__,                                                                                 \
        [&](auto&... b) { tensor_scatter_nd_##name##_in_place(b..., scatter_options(options)); }, \
        Arg{tensor, "tensor"}, Arg{indices, "indices"}, Arg{updates, "updates"});                 \
  }                                                                                               \
  tb_status tb_tensor_scatter_nd_##name##_ex(                                                     \
      const tb_buffer* tensor, const tb_buffer* indices, const tb_buffer* updates,                \
      const tb_scatter_options* options, tb_buffer** out) noexcept {                              \
    return call_op_publishing(                                                                    \
        __func__, out,                                                                            \
        [&](auto&... b) { return tensor_scatter_nd_##name(b..., scatter_options(options)); },     \
        Arg{tensor, "tensor"}, Arg{indices, "indices"}, Arg{updates, "updates"});                 \
  }

extern "C" {

TENSORBUF_SCATTER_COMBINES(TB_DEFINE_SCATTER_)
#undef TB_DEFINE_SCATTER_

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

tb_status tb_substr(const tb_buffer* offsets, const tb_buffer* chars, int ndim,
                    const int64_t* shape, const tb_buffer* pos, const tb_buffer* len,
                    const tb_substr_options* options, tb_buffer** out_offsets,
                    tb_buffer** out_chars, int* out_ndim, int64_t* out_shape) noexcept {
  return guarded(__func__, [&] {
    // Shared, not copied: from_buffers takes its buffers by value.
    TensorBuffer in_offsets = core::BufferAccess::share(*buffer_of(offsets, "offsets"));
    TensorBuffer in_chars = core::BufferAccess::share(*buffer_of(chars, "chars"));
    const std::shared_ptr<const TensorBuffer> p = buffer_of(pos, "pos");
    const std::shared_ptr<const TensorBuffer> l = buffer_of(len, "len");
    require(out_offsets, "out_offsets");
    require(out_chars, "out_chars");
    require(out_ndim, "out_ndim");
    require(out_shape, "out_shape");
    const StringTensor input = StringTensor::from_buffers(
        std::move(in_offsets), std::move(in_chars), to_shape(ndim, shape));
    StringTensor result = substr(input, *p, *l, substr_options(options));
    const Shape result_shape = result.shape();
    int rank = 0;
    std::int64_t dims[TB_MAX_NDIM];
    write_shape(result_shape, &rank, dims);  // OutOfRangeError before any output is written
    NewHandle offsets_handle;
    NewHandle chars_handle;
    auto [result_offsets, result_chars] = core::StringTensorAccess::take_buffers(std::move(result));
    offsets_handle.set(std::move(result_offsets));
    chars_handle.set(std::move(result_chars));
    for (int i = 0; i < rank; ++i) out_shape[i] = dims[i];
    *out_ndim = rank;
    *out_offsets = offsets_handle.publish();
    *out_chars = chars_handle.publish();
  });
}

}  // extern "C"
