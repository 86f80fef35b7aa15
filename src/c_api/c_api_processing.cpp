// The C API of the processing ops (normalize, quantize, dequantize, cast, quantize_linear,
// dequantize_linear): thin calls of the C++ ops inside `guarded` (the C++ op validates; on
// failure *out is not written).
#include <vector>

#include "c_api/c_api_internal.hpp"
#include "tensorbuf/processing.hpp"
#include "tensorbuf/quantize_linear.hpp"

namespace tensorbuf::c_api {

ProcessOptions process_options(const tb_process_options* c) {
  ProcessOptions options;
  if (c == nullptr) return options;
  require_struct_size(c->struct_size, {}, sizeof(tb_process_options), "options");
  take_stream_and_device(c, options);
  return options;
}

namespace {

QuantizeLinearOptions linear_options(const tb_quantize_linear_options* c) {
  QuantizeLinearOptions options;
  if (c == nullptr) return options;
  require_struct_size(c->struct_size, {}, sizeof(tb_quantize_linear_options), "options");
  options.axis = c->axis;
  take_stream_and_device(c, options);
  return options;
}

// `op(x)` into a new handle in *out.
template <class Op>
tb_status unary(const char* name, const tb_buffer* x, tb_buffer** out, Op op) {
  return call_op_publishing(name, out, op, Arg{x, "x"});
}

}  // namespace
}  // namespace tensorbuf::c_api

using namespace tensorbuf;
using namespace tensorbuf::c_api;

extern "C" {

tb_status tb_normalize(const tb_buffer* x, float mean, float stddev,
                       const tb_process_options* options, tb_buffer** out) noexcept {
  return unary(__func__, x, out, [&](const TensorBuffer& in) {
    return normalize(in, mean, stddev, process_options(options));
  });
}

tb_status tb_normalize_channels(const tb_buffer* x, const float* means, const float* stddevs,
                                int64_t channels, const tb_process_options* options,
                                tb_buffer** out) noexcept {
  return unary(__func__, x, out, [&](const TensorBuffer& in) {
    if (channels < 0) throw InvalidArgumentError("channels must not be negative");
    if (channels > 0) {
      require(means, "means");
      require(stddevs, "stddevs");
    }
    const auto n = static_cast<std::size_t>(channels);
    const std::vector<float> m(means, means + (channels > 0 ? n : 0));
    const std::vector<float> s(stddevs, stddevs + (channels > 0 ? n : 0));
    return normalize(in, m, s, process_options(options));
  });
}

tb_status tb_quantize(const tb_buffer* x, float zero_point, float scale,
                      const tb_process_options* options, tb_buffer** out) noexcept {
  return unary(__func__, x, out, [&](const TensorBuffer& in) {
    return quantize(in, zero_point, scale, process_options(options));
  });
}

tb_status tb_dequantize(const tb_buffer* x, float zero_point, float scale,
                        const tb_process_options* options, tb_buffer** out) noexcept {
  return unary(__func__, x, out, [&](const TensorBuffer& in) {
    return dequantize(in, zero_point, scale, process_options(options));
  });
}

tb_status tb_cast(const tb_buffer* x, tb_dtype dtype, const tb_process_options* options,
                  tb_buffer** out) noexcept {
  return unary(__func__, x, out, [&](const TensorBuffer& in) {
    return cast(in, to_data_type(raw_value(dtype)), process_options(options));
  });
}

tb_status tb_quantize_linear(const tb_buffer* x, const tb_buffer* scale,
                             const tb_buffer* zero_point, const tb_quantize_linear_options* options,
                             tb_buffer** out) noexcept {
  return call_op_publishing(
      __func__, out, [&](auto&... b) { return quantize_linear(b..., linear_options(options)); },
      Arg{x, "x"}, Arg{scale, "scale"}, Arg{zero_point, "zero_point"});
}

tb_status tb_dequantize_linear(const tb_buffer* x, const tb_buffer* scale,
                               const tb_buffer* zero_point,
                               const tb_quantize_linear_options* options,
                               tb_buffer** out) noexcept {
  return call_op_publishing(
      __func__, out, [&](auto&... b) { return dequantize_linear(b..., linear_options(options)); },
      Arg{x, "x"}, Arg{scale, "scale"}, Arg{zero_point, "zero_point"});
}

}  // extern "C"
