// gather's Python row (op_binder.hpp).
#include "op_binder.hpp"

TENSORBUF_PYTHON_OP(
    gather, GatherOptions, ReadInputs{},
    Keywords<kw::Axis<0>, kw::BatchDims, kw::OutOfBounds, kw::Device, kw::Stream>{}, &gather,
    "ONNX Gather / np.take(params, indices, axis) / tf.gather: shape params.shape[:axis] + "
    "indices.shape[batch_dims:] + params.shape[axis+1:] (batch_dims: leading dims shared by "
    "params and indices, tf.gather's); indices int32/int64, -s <= i < 0 means i + s, "
    "anything else outside [0, s) is out of range (error, or zeros with "
    "out_of_bounds=\"drop\")")
