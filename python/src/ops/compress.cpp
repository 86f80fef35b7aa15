// compress's Python row (op_binder.hpp).
#include "op_binder.hpp"

TENSORBUF_PYTHON_OP(
    compress, CompressOptions, ReadInputs{}, Keywords<kw::OptionalAxis, kw::Device, kw::Stream>{},
    &compress,
    "ONNX Compress / numpy.compress: the slices of input along axis whose entry of the 1-D "
    "bool condition is true (axis None: the flattened input)")
