// boolean_mask_into's Python row (op_binder.hpp).
#include "op_binder.hpp"

TENSORBUF_PYTHON_OP(
    boolean_mask_into, BooleanMaskOptions, Inputs<in::Target, in::Read, in::Written, in::Written>{},
    Keywords<kw::Axis<0>, kw::Device, kw::Stream>{}, &boolean_mask_into,
    "boolean_mask written into the caller's `out` (capacity C along axis) and the true count "
    "n into `count` (int64, one element), with no host wait: the first min(n, C) slices are "
    "written, the rest of out is left as it was; compare count with C.")
