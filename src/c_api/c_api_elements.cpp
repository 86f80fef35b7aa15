// The C API of the gather family (gather_nd, gather, gather_elements) and scatter_elements: thin
// calls of the C++ ops inside `guarded` (the C++ ops validate; on failure nothing is written).
// The three gathers share tb_gather_options; each op reads the fields it has.
#include "c_api/c_api_internal.hpp"
#include "core/error_macros.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf::c_api {
namespace {

GatherOptions gather_options(const tb_gather_options* c) {
  GatherOptions options;
  if (c == nullptr) return options;
  require_struct_size(c->struct_size, {}, sizeof(tb_gather_options), "options");
  options.out_of_bounds = to_policy(raw_value(c->oob));
  options.axis = c->axis;
  options.batch_dims = c->batch_dims;
  take_stream_and_device(c, options);
  return options;
}

Reduction to_reduction(int reduction) {
  switch (reduction) {
    case TB_REDUCTION_NONE:
      return Reduction::kNone;
    case TB_REDUCTION_ADD:
      return Reduction::kAdd;
    case TB_REDUCTION_MUL:
      return Reduction::kMul;
    case TB_REDUCTION_MIN:
      return Reduction::kMin;
    case TB_REDUCTION_MAX:
      return Reduction::kMax;
    default:
      throw InvalidArgumentError(core::str_cat("unknown tb_reduction ", reduction));
  }
}

ScatterElementsOptions scatter_options(const tb_scatter_elements_options* c) {
  ScatterElementsOptions options;
  if (c == nullptr) return options;
  require_struct_size(c->struct_size, {}, sizeof(tb_scatter_elements_options), "options");
  options.out_of_bounds = to_policy(raw_value(c->oob));
  options.axis = c->axis;
  options.reduction = to_reduction(raw_value(c->reduction));
  options.deterministic = c->deterministic != 0;
  take_stream_and_device(c, options);
  return options;
}

}  // namespace
}  // namespace tensorbuf::c_api

using namespace tensorbuf;
using namespace tensorbuf::c_api;

extern "C" {

tb_status tb_gather_nd(const tb_buffer* params, const tb_buffer* indices,
                       const tb_gather_options* options, tb_buffer** out) noexcept {
  return call_op_publishing(
      __func__, out, [&](auto&... b) { return gather_nd(b..., gather_options(options)); },
      Arg{params, "params"}, Arg{indices, "indices"});
}

tb_status tb_gather(const tb_buffer* params, const tb_buffer* indices,
                    const tb_gather_options* options, tb_buffer** out) noexcept {
  return call_op_publishing(
      __func__, out, [&](auto&... b) { return gather(b..., gather_options(options)); },
      Arg{params, "params"}, Arg{indices, "indices"});
}

tb_status tb_gather_elements(const tb_buffer* params, const tb_buffer* indices,
                             const tb_gather_options* options, tb_buffer** out) noexcept {
  return call_op_publishing(
      __func__, out, [&](auto&... b) { return gather_elements(b..., gather_options(options)); },
      Arg{params, "params"}, Arg{indices, "indices"});
}

tb_status tb_scatter_elements(const tb_buffer* tensor, const tb_buffer* indices,
                              const tb_buffer* updates, const tb_scatter_elements_options* options,
                              tb_buffer** out) noexcept {
  return call_op_publishing(
      __func__, out, [&](auto&... b) { return scatter_elements(b..., scatter_options(options)); },
      Arg{tensor, "tensor"}, Arg{indices, "indices"}, Arg{updates, "updates"});
}

tb_status tb_scatter_elements_in_place(tb_buffer* tensor, const tb_buffer* indices,
                                       const tb_buffer* updates,
                                       const tb_scatter_elements_options* options) noexcept {
  return call_op(
      __func__, [&](auto&... b) { scatter_elements_in_place(b..., scatter_options(options)); },
      Arg{tensor, "tensor"}, Arg{indices, "indices"}, Arg{updates, "updates"});
}

}  // extern "C"
