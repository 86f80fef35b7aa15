// gather_elements's Python row (op_binder.hpp).
#include "op_binder.hpp"

TENSORBUF_PYTHON_OP(
    gather_elements, GatherOptions, ReadInputs{},
    Keywords<kw::Axis<0>, kw::OutOfBounds, kw::Device, kw::Stream>{}, &gather_elements,
    "ONNX GatherElements / torch.gather / np.take_along_axis: out[p] = params[p with "
    "p[axis] = indices[p]], shape indices.shape (params' rank, indices.shape[d] <= "
    "params.shape[d] off the axis); negative indices and out_of_bounds as gather's")
