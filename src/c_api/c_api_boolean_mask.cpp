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
  options.stream = Stream{c->stream};
  options.device = to_optional_device(c->device);
  return options;
}

CompressOptions compress_options(const tb_compress_options* c) {
  CompressOptions options;
  if (c == nullptr) return options;
  require_struct_size(c->struct_size, {}, sizeof(tb_compress_options), "options");
  if (c->has_axis != 0) options.axis = c->axis;
  options.stream = Stream{c->stream};
  options.device = to_optional_device(c->device);
  return options;
}

}  // namespace
}  // namespace tensorbuf::c_api

using namespace tensorbuf;
using namespace tensorbuf::c_api;

extern "C" {

tb_status tb_boolean_mask(const tb_buffer* tensor, const tb_buffer* mask,
                          const tb_boolean_mask_options* options, tb_buffer** out) noexcept {
  return guarded(__func__, [&] {
    // Held for the call: a destroy on another thread cannot free them under the op.
    const std::shared_ptr<const TensorBuffer> t = buffer_of(tensor, "tensor");
    const std::shared_ptr<const TensorBuffer> m = buffer_of(mask, "mask");
    publish_result(out, [&] { return boolean_mask(*t, *m, boolean_mask_options(options)); });
  });
}

tb_status tb_boolean_mask_into(const tb_buffer* tensor, const tb_buffer* mask, tb_buffer* out,
                               tb_buffer* count, const tb_boolean_mask_options* options) noexcept {
  return guarded(__func__, [&] {
    const std::shared_ptr<const TensorBuffer> t = buffer_of(tensor, "tensor");
    const std::shared_ptr<const TensorBuffer> m = buffer_of(mask, "mask");
    const std::shared_ptr<TensorBuffer> o = buffer_of(out, "out");
    const std::shared_ptr<TensorBuffer> n = buffer_of(count, "count");
    boolean_mask_into(*t, *m, *o, *n, boolean_mask_options(options));
  });
}

tb_status tb_compress(const tb_buffer* input, const tb_buffer* condition,
                      const tb_compress_options* options, tb_buffer** out) noexcept {
  return guarded(__func__, [&] {
    const std::shared_ptr<const TensorBuffer> i = buffer_of(input, "input");
    const std::shared_ptr<const TensorBuffer> c = buffer_of(condition, "condition");
    publish_result(out, [&] { return compress(*i, *c, compress_options(options)); });
  });
}

}  // extern "C"
