// ONNX QuantizeLinear / DequantizeLinear (opset 13 semantics): spec/processing.md 5, decisions
// in docs/processing.md.
#pragma once

#include <optional>

#include "tensorbuf/export.h"
#include "tensorbuf/tensor_buffer.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf {

/// Options of quantize_linear and dequantize_linear. Unset `device`: where `x`'s freshest copy
/// lives. `axis` (negative counts from the end) is used by the per-axis form only.
struct QuantizeLinearOptions {
  std::optional<Device> device{};
  int axis = 1;
  Stream stream{};
};

/// y = saturate(round_half_even(x / scale) + zero_point), in float32 (float64 for float64 x).
/// x: float32, float16, bfloat16, float64 or int32; scale: a floating dtype; zero_point:
/// uint8, int8 or int16 (the output dtype), of scale's shape. Per tensor: one-element scale
/// of rank <= 1; per axis: 1-D of length x.shape[axis]. NaN gives the zero point, +-inf
/// saturates. InvalidArgumentError for other dtypes, shapes, an axis out of range, or a scale
/// that is not a positive finite number.
TENSORBUF_API TensorBuffer quantize_linear(const TensorBuffer& x, const TensorBuffer& scale,
                                           const TensorBuffer& zero_point,
                                           const QuantizeLinearOptions& = {});
/// y = (float32(x) - float32(zero_point)) * scale in float32, output float32. x: uint8, int8,
/// int16 or int32 (int32: the zero point must be all zeros); zero_point of x's dtype and
/// scale's shape; the same scale and shape rules as quantize_linear.
TENSORBUF_API TensorBuffer dequantize_linear(const TensorBuffer& x, const TensorBuffer& scale,
                                             const TensorBuffer& zero_point,
                                             const QuantizeLinearOptions& = {});

}  // namespace tensorbuf
