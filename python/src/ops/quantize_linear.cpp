// quantize_linear's Python row (op_binder.hpp).
#include "op_binder.hpp"

TENSORBUF_PYTHON_OP(
    quantize_linear, QuantizeLinearOptions, Inputs<in::Target, in::Float32, in::ZeroPoint<false>>{},
    Keywords<kw::Axis<1>, kw::Device, kw::Stream>{}, &quantize_linear,
    "ONNX QuantizeLinear (opset 13): saturate(round_half_even(x / scale) + zero_point) in the "
    "zero point's dtype (a Python number: uint8); per tensor or per axis")
