// dequantize's Python row (op_binder.hpp).
#include "op_binder.hpp"

TENSORBUF_PYTHON_OP(dequantize, ProcessOptions, Inputs<in::Target, in::Number, in::Number>{},
                    Keywords<kw::Device, kw::Stream>{}, &dequantize,
                    "TFLite Support's DequantizeOp: normalize(x, zero_point, 1 / scale)")
