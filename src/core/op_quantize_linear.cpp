// quantize_linear / dequantize_linear (ONNX, opset 13 semantics): the dtype, shape, axis and
// scale rules once here; the arithmetic runs in src/cpu/quantize_linear.cpp and
// src/cpu/dequantize_linear.cpp on the host, and on CUDA in the kernels of
// src/kernels/quantize_linear.hpp (bit-equal to those loops).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/backend_run.hpp"
#include "core/buffer_access.hpp"
#include "core/capture.hpp"
#include "core/dispatch.hpp"
#include "core/error_macros.hpp"
#include "core/quantize_linear_backends.hpp"
#include "core/quantize_linear_plan.hpp"
#include "tensorbuf/quantize_linear.hpp"

namespace tensorbuf {
namespace {

bool is_floating(DataType t) {
  return t == DataType::kFloat16 || t == DataType::kBFloat16 || t == DataType::kFloat32 ||
         t == DataType::kFloat64;
}

using core::LinearPlan;

LinearPlan plan_linear(const char* op, const TensorBuffer& x, const TensorBuffer& scale,
                       const TensorBuffer& zero_point, const QuantizeLinearOptions& options,
                       DataType scale_type) {
  const int axis = options.axis;
  // The parameters are validated on the host: a copy only on the device would be a host wait,
  // which would invalidate a CUDA graph being captured.
  core::reject_capture(op, core::linear_capture_blocker(scale, zero_point),
                       core::resolve_device(options.device, x), options.stream);
  TENSORBUF_EXPECTS(
      is_floating(scale.data_type()), InvalidArgumentError,
      core::str_cat(op, ": scale must be a floating dtype, got ", to_string(scale.data_type())));
  const Shape& s = core::BufferAccess::shape(scale);
  const Shape& z = core::BufferAccess::shape(zero_point);
  TENSORBUF_EXPECTS(s == z, InvalidArgumentError,
                    core::str_cat(op, ": scale of shape ", s.to_string(),
                                  " and zero_point of shape ", z.to_string(), " differ"));
  TENSORBUF_EXPECTS(
      s.rank() <= 1, InvalidArgumentError,
      core::str_cat(op, ": scale must be a scalar or 1-D, got shape ", s.to_string()));
  const Shape& xs = core::BufferAccess::shape(x);
  LinearPlan plan;
  plan.elements = xs.num_elements();
  plan.x_type = x.data_type();
  const bool per_tensor = s.num_elements() == 1;
  if (!per_tensor) {
    const int rank = xs.rank();
    TENSORBUF_EXPECTS(
        axis >= -rank && axis < rank, InvalidArgumentError,
        core::str_cat(op, ": axis ", axis, " out of range for x of shape ", xs.to_string()));
    const int a = axis < 0 ? axis + rank : axis;
    TENSORBUF_EXPECTS(xs[a] == s.num_elements(), InvalidArgumentError,
                      core::str_cat(op, ": ", s.num_elements(), " scales for axis ", axis,
                                    " of x of shape ", xs.to_string()));
    plan.channels = xs[a];
    for (int d = a + 1; d < rank; ++d) plan.inner *= xs[d];
  }
  const TensorBuffer sv = TensorBuffer::create_from(scale, scale_type);
  const TensorBuffer sd = TensorBuffer::create_from(sv, DataType::kFloat64);
  const TensorBuffer zd = TensorBuffer::create_from(zero_point, DataType::kFloat64);
  const double* sp = sd.host<double>();
  const double* zp = zd.host<double>();
  plan.scale.assign(sp, sp + s.num_elements());
  plan.zero_point.assign(zp, zp + s.num_elements());
  for (double v : plan.scale) {
    TENSORBUF_EXPECTS(std::isfinite(v) && v > 0, InvalidArgumentError,
                      core::str_cat(op, ": scale must be a positive finite number, got ", v));
  }
  return plan;
}

// The CUDA backend's run: x read on the device, y (x's shape, dynamic when x is) written there.
template <class Backend>
TensorBuffer run_on_cuda(const TensorBuffer& x, const LinearPlan& plan, bool dynamic, Device device,
                         Stream stream, Backend backend_fn) {
  TensorBuffer y =
      core::BufferAccess::uninitialized(core::BufferAccess::shape(x), plan.y_type, dynamic);
  core::BackendRun backend(device, stream);
  core::LinearBuffers buffers;
  buffers.x = backend.read(x);
  buffers.y = backend.overwrite(y);
  backend_fn(plan, buffers, backend.cuda());
  backend.finish();
  return y;
}

}  // namespace

namespace core {

LinearPlan plan_quantize_linear(const TensorBuffer& x, const TensorBuffer& scale,
                                const TensorBuffer& zero_point,
                                const QuantizeLinearOptions& options) {
  const DataType xt = x.data_type();
  TENSORBUF_EXPECTS(is_floating(xt) || xt == DataType::kInt32, InvalidArgumentError,
                    core::str_cat("quantize_linear: x must be float32, float16, bfloat16, "
                                  "float64 or int32, got ",
                                  to_string(xt)));
  const DataType zt = zero_point.data_type();
  TENSORBUF_EXPECTS(zt == DataType::kUInt8 || zt == DataType::kInt8 || zt == DataType::kInt16,
                    InvalidArgumentError,
                    core::str_cat("quantize_linear: zero_point must be uint8, int8 or int16, got ",
                                  to_string(zt)));
  const DataType real = xt == DataType::kFloat64 ? DataType::kFloat64 : DataType::kFloat32;
  LinearPlan plan = plan_linear("quantize_linear", x, scale, zero_point, options, real);
  plan.y_type = zt;
  return plan;
}

LinearPlan plan_dequantize_linear(const TensorBuffer& x, const TensorBuffer& scale,
                                  const TensorBuffer& zero_point,
                                  const QuantizeLinearOptions& options) {
  const DataType xt = x.data_type();
  TENSORBUF_EXPECTS(xt == DataType::kUInt8 || xt == DataType::kInt8 || xt == DataType::kInt16 ||
                        xt == DataType::kInt32,
                    InvalidArgumentError,
                    core::str_cat("dequantize_linear: x must be uint8, int8, int16 or int32, got ",
                                  to_string(xt)));
  TENSORBUF_EXPECTS(zero_point.data_type() == xt, InvalidArgumentError,
                    core::str_cat("dequantize_linear: zero_point must have x's dtype ",
                                  to_string(xt), ", got ", to_string(zero_point.data_type())));
  LinearPlan plan =
      plan_linear("dequantize_linear", x, scale, zero_point, options, DataType::kFloat32);
  plan.y_type = DataType::kFloat32;
  if (xt == DataType::kInt32) {
    for (double z : plan.zero_point) {
      TENSORBUF_EXPECTS(z == 0, InvalidArgumentError,
                        "dequantize_linear: an int32 x needs a zero zero_point");
    }
  }
  return plan;
}

}  // namespace core

TensorBuffer quantize_linear(const TensorBuffer& x, const TensorBuffer& scale,
                             const TensorBuffer& zero_point, const QuantizeLinearOptions& options) {
  const LinearPlan plan = core::plan_quantize_linear(x, scale, zero_point, options);
  const DataType zt = plan.y_type;
  const DataType real =
      x.data_type() == DataType::kFloat64 ? DataType::kFloat64 : DataType::kFloat32;
  const Device device = core::resolve_device(options.device, x);
  if (device.is_cuda()) {
    return run_on_cuda(x, plan, false, device, options.stream,
                       [](auto&... a) { cuda::quantize_linear(a...); });
  }
  // float32(x) by tensor_buffer.md's conversion (exact for the 16-bit floats); float32 and
  // float64 are read as they are.
  const TensorBuffer xr =
      x.data_type() == real ? core::BufferAccess::share(x) : TensorBuffer::create_from(x, real);
  const Shape& shape = core::BufferAccess::shape(x);
  TensorBuffer out = TensorBuffer::create_uninitialized(shape, zt);
  core::LinearBuffers buffers;
  buffers.x = xr.host_bytes();
  buffers.y = out.overwrite_host_bytes();
  cpu::quantize_linear(plan, buffers);
  return out;
}

TensorBuffer dequantize_linear(const TensorBuffer& x, const TensorBuffer& scale,
                               const TensorBuffer& zero_point,
                               const QuantizeLinearOptions& options) {
  const LinearPlan plan = core::plan_dequantize_linear(x, scale, zero_point, options);
  const Device device = core::resolve_device(options.device, x);
  if (device.is_cuda()) {
    return run_on_cuda(x, plan, x.is_dynamic(), device, options.stream,
                       [](auto&... a) { cuda::dequantize_linear(a...); });
  }
  TensorBuffer out = core::BufferAccess::uninitialized(core::BufferAccess::shape(x),
                                                       DataType::kFloat32, x.is_dynamic());
  core::LinearBuffers buffers;
  buffers.x = x.host_bytes();
  buffers.y = out.overwrite_host_bytes();
  cpu::dequantize_linear(plan, buffers);
  return out;
}

}  // namespace tensorbuf
