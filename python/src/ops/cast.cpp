// cast's Python row (op_binder.hpp).
#include "op_binder.hpp"

TENSORBUF_PYTHON_OP(
    cast, ProcessOptions, Inputs<in::Target, in::DTypeName>{}, Keywords<kw::Device, kw::Stream>{},
    &tensorbuf::cast,
    "TFLite Support's CastOp for every pair of dtypes (saturating, NaN to 0); x itself when "
    "dtype is x's")
