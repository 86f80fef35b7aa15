// dequantize_linear's Python row (op_binder.hpp).
#include "op_binder.hpp"

TENSORBUF_PYTHON_OP(
    dequantize_linear, QuantizeLinearOptions,
    Inputs<in::Target, in::Float32, in::ZeroPoint<true>>{},
    Keywords<kw::Axis<1>, kw::Device, kw::Stream>{}, &dequantize_linear,
    "ONNX DequantizeLinear (opset 13): (float32(x) - zero_point) * scale in float32")
