// The C API of gather_nd: a thin call of the C++ op inside `guarded` (the C++ op validates; on
// failure nothing is written).
#include "c_api/c_api_internal.hpp"
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

}  // extern "C"
