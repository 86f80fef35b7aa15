// The C API of the scatters: one set of four functions per combine of the op table
// (tensorbuf/op_table.hpp), each a thin call of the C++ op inside `guarded` (the C++ op
// validates; on failure nothing is written).
#include <type_traits>

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
  if (TENSORBUF_C_HAS_FIELD(c, tb_scatter_options, device)) {
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

}  // extern "C"
