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
  options.stream = Stream{c->stream};
  options.device = to_optional_device(c->device);
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
  options.stream = Stream{c->stream};
  options.device = to_optional_device(c->device);
  return options;
}

}  // namespace
}  // namespace tensorbuf::c_api

using namespace tensorbuf;
using namespace tensorbuf::c_api;

extern "C" {

tb_status tb_gather_nd(const tb_buffer* params, const tb_buffer* indices,
                       const tb_gather_options* options, tb_buffer** out) noexcept {
  return guarded(__func__, [&] {
    // Held for the call: a destroy on another thread cannot free them under the op.
    const std::shared_ptr<const TensorBuffer> p = buffer_of(params, "params");
    const std::shared_ptr<const TensorBuffer> i = buffer_of(indices, "indices");
    publish_result(out, [&] { return gather_nd(*p, *i, gather_options(options)); });
  });
}

tb_status tb_gather(const tb_buffer* params, const tb_buffer* indices,
                    const tb_gather_options* options, tb_buffer** out) noexcept {
  return guarded(__func__, [&] {
    const std::shared_ptr<const TensorBuffer> p = buffer_of(params, "params");
    const std::shared_ptr<const TensorBuffer> i = buffer_of(indices, "indices");
    publish_result(out, [&] { return gather(*p, *i, gather_options(options)); });
  });
}

tb_status tb_gather_elements(const tb_buffer* params, const tb_buffer* indices,
                             const tb_gather_options* options, tb_buffer** out) noexcept {
  return guarded(__func__, [&] {
    const std::shared_ptr<const TensorBuffer> p = buffer_of(params, "params");
    const std::shared_ptr<const TensorBuffer> i = buffer_of(indices, "indices");
    publish_result(out, [&] { return gather_elements(*p, *i, gather_options(options)); });
  });
}

tb_status tb_scatter_elements(const tb_buffer* tensor, const tb_buffer* indices,
                              const tb_buffer* updates,
                              const tb_scatter_elements_options* options,
                              tb_buffer** out) noexcept {
  return guarded(__func__, [&] {
    const std::shared_ptr<const TensorBuffer> t = buffer_of(tensor, "tensor");
    const std::shared_ptr<const TensorBuffer> i = buffer_of(indices, "indices");
    const std::shared_ptr<const TensorBuffer> u = buffer_of(updates, "updates");
    publish_result(out, [&] { return scatter_elements(*t, *i, *u, scatter_options(options)); });
  });
}

tb_status tb_scatter_elements_in_place(tb_buffer* tensor, const tb_buffer* indices,
                                       const tb_buffer* updates,
                                       const tb_scatter_elements_options* options) noexcept {
  return guarded(__func__, [&] {
    const std::shared_ptr<TensorBuffer> t = buffer_of(tensor, "tensor");
    const std::shared_ptr<const TensorBuffer> i = buffer_of(indices, "indices");
    const std::shared_ptr<const TensorBuffer> u = buffer_of(updates, "updates");
    scatter_elements_in_place(*t, *i, *u, scatter_options(options));
  });
}

}  // extern "C"
