// boolean_mask's Python row (op_binder.hpp).
#include "op_binder.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf::python::binder {

TENSORBUF_PYTHON_OP(
    boolean_mask,
    op<BooleanMaskOptions>(
        ReadInputs{}, Keywords<kw::Axis<0>, kw::Device, kw::Stream>{}, &boolean_mask,
        "NumPy's tensor[(slice(None),) * axis + (mask,)], tf.boolean_mask: the slices where the "
        "bool mask is true, in the mask's row-major order"))

}  // namespace tensorbuf::python::binder
