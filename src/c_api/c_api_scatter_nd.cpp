// The C API of the scatters: one set of four functions per combine of the op table
// (tensorbuf/op_table.hpp), each a thin call of the C++ op inside `guarded` (the C++ op
// validates; on failure nothing is written).
#include "c_api/c_api_internal.hpp"
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
  take_stream_and_device(c, options);
  return options;
}

// A combine's four functions, named (c_api.h declares them: below).
constexpr bool declared(auto*... functions) { return sizeof...(functions) == 4; }

}  // namespace
}  // namespace tensorbuf::c_api

using namespace tensorbuf;
using namespace tensorbuf::c_api;

// Every combine of the op table has the four functions c_api.h declares: named here, before
// the definitions below could declare them, so a table line the header lacks stops the build (a
// declaration of another signature conflicts with its definition, another error).
#define TB_REQUIRE_DECLARED_(name, op, what)                                                   \
  static_assert(                                                                               \
      declared(&tb_tensor_scatter_nd_##name##_in_place, &tb_tensor_scatter_nd_##name,          \
               &tb_tensor_scatter_nd_##name##_in_place_ex, &tb_tensor_scatter_nd_##name##_ex), \
      "c_api.h declares the four functions of tb_tensor_scatter_nd_" #name);
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

}  // extern "C"
