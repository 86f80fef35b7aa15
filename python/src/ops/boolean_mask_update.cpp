// boolean_mask_update's Python row (op_binder.hpp).
#include "op_binder.hpp"

TENSORBUF_PYTHON_OP(boolean_mask_update, BooleanMaskUpdateOptions, UpdateInputs{},
                    Keywords<kw::Axis<0>, kw::Broadcast, kw::Device, kw::Stream>{},
                    &boolean_mask_update,
                    "NumPy's out[(slice(None),) * axis + (mask,)] = updates on a copy of tensor",
                    &boolean_mask_update_in_place,
                    "Same, writing into `tensor` itself; on error nothing is written.")
