// scatter_elements' Python row (op_binder.hpp).
#include "op_binder.hpp"

TENSORBUF_PYTHON_OP(
    scatter_elements, ScatterElementsOptions, UpdateInputs{},
    Keywords<kw::Axis<0>, kw::ReductionWord, kw::OutOfBounds, kw::Deterministic, kw::Device,
             kw::Stream>{},
    &scatter_elements,
    "ONNX ScatterElements / torch scatter_reduce_(include_self=True): out = tensor; for each "
    "position p of indices in row-major order, out[p with p[axis] = indices[p]] = "
    "combine(that, updates[p]), reduction \"none\" (assign; duplicates: the last wins on "
    "the CPU) | \"add\" | \"mul\" | \"min\" | \"max\"; indices int32/int64 and updates "
    "(tensor's dtype) of one shape, tensor's rank; negative indices and out_of_bounds as "
    "gather's (drop: skipped)",
    &scatter_elements_in_place)
