// The tensor_scatter_nd combines' Python rows, one per combine of the op table (op_binder.hpp).
#include "op_binder.hpp"

#define TENSORBUF_SCATTER_ROW(name, op_, what)                                                \
  TENSORBUF_PYTHON_OP(tensor_scatter_nd_##name, ScatterOptions, UpdateInputs{},               \
                      Keywords<kw::Device, kw::OutOfBounds, kw::Deterministic, kw::Stream>{}, \
                      &tensor_scatter_nd_##name, "out = tensor; " what,                       \
                      &tensor_scatter_nd_##name##_in_place)
TENSORBUF_SCATTER_COMBINES(TENSORBUF_SCATTER_ROW)
#undef TENSORBUF_SCATTER_ROW
