// quantize's Python row (op_binder.hpp).
#include "op_binder.hpp"

TENSORBUF_PYTHON_OP(quantize, ProcessOptions, Inputs<in::Target, in::Number, in::Number>{},
                    Keywords<kw::Device, kw::Stream>{}, &quantize,
                    "TFLite Support's QuantizeOp: normalize(x, -zero_point * scale, scale)")
