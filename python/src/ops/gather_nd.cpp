// gather_nd's Python row (op_binder.hpp).
#include "op_binder.hpp"

TENSORBUF_PYTHON_OP(
    gather_nd, GatherOptions, ReadInputs{},
    Keywords<kw::BatchDims, kw::OutOfBounds, kw::Device, kw::Stream>{}, &gather_nd,
    "tf.gather_nd / ONNX GatherND: with b = batch_dims and D = indices.shape[-1], "
    "out[i...] = params[i[:b]..., *indices[i...]], shape indices.shape[:-1] + "
    "params.shape[b+D:]; indices int32/int64, negative components out of range (error, or "
    "zeros with out_of_bounds=\"drop\")")
