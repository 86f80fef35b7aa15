// boolean_mask's Python row (op_binder.hpp).
#include "op_binder.hpp"

TENSORBUF_PYTHON_OP(
    boolean_mask, BooleanMaskOptions, ReadInputs{}, Keywords<kw::Axis<0>, kw::Device, kw::Stream>{},
    &boolean_mask,
    "NumPy's tensor[(slice(None),) * axis + (mask,)], tf.boolean_mask: the slices where the "
    "bool mask is true, in the mask's row-major order")
