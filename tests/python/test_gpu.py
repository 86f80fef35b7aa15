"""On a GPU (scripts/gpu_check.sh runs these; they skip without one): torch CUDA tensors in
place on the caller's stream, __cuda_stream__, the stream a consumer gives __dlpack__, and CuPy
and JAX as consumers."""

import numpy as np
import pytest
import torch

import tensorbuf as tb

pytestmark = pytest.mark.skipif(
    not (tb.cuda_available() and torch.cuda.is_available()),
    reason="needs a CUDA build of tensorbuf and a GPU torch can use")


def test_torch_cuda_in_place_on_the_current_stream():
    table = torch.zeros(1024, 4, device="cuda")
    pointer = table.data_ptr()
    indices = torch.tensor([[3], [1000]], device="cuda")
    updates = torch.ones(2, 4, device="cuda")
    tb.tensor_scatter_nd_add_in_place(table, indices, updates, stream=torch.cuda.current_stream())
    assert table.data_ptr() == pointer
    torch.cuda.synchronize()
    assert table.sum().item() == 8 and table[1000].tolist() == [1, 1, 1, 1]
    mask = torch.zeros(1024, dtype=torch.bool, device="cuda")
    mask[5] = True
    tb.boolean_mask_update_in_place(table, mask, 7.0, stream=torch.cuda.current_stream())
    torch.cuda.synchronize()
    assert table[5].tolist() == [7, 7, 7, 7]


def test_side_stream_and_cuda_stream_protocol():
    side = torch.cuda.Stream()

    class StreamHandle:
        def __cuda_stream__(self):
            return (0, side.cuda_stream)

    with torch.cuda.stream(side):
        table = torch.zeros(1 << 20, device="cuda")
        indices = torch.arange(0, 1 << 20, 2, device="cuda").reshape(-1, 1)
        updates = torch.ones(1 << 19, device="cuda")
        for _ in range(10):  # ordered on `side` after torch's own work there
            tb.tensor_scatter_nd_add_in_place(table, indices, updates, stream=StreamHandle())
    side.synchronize()
    assert table[::2].sum().item() == 10 * (1 << 19) and table[1::2].sum().item() == 0


def test_results_reach_torch_cupy_and_jax_on_the_device():
    same = tb.tensor_scatter_nd_add(torch.zeros(4, device="cuda"), [[1]], [2.0], device="cuda")
    assert type(same) is torch.Tensor and same.is_cuda and same.tolist() == [0, 2, 0, 0]
    mask = tb.boolean_mask_update(torch.zeros(3, dtype=torch.bool, device="cuda"),
                                  torch.tensor([True, False, True], device="cuda"), True)
    assert mask.is_cuda and mask.dtype == torch.bool and mask.tolist() == [True, False, True]
    result = tb.tensor_scatter_nd_add(torch.zeros(4, device="cuda"), [[1]], [2.0], device="cuda",
                                      out_type="tensorbuf")
    assert result.device == "cuda:0" and result.__dlpack_device__() == (2, 0)
    as_torch = torch.from_dlpack(result)
    torch.cuda.synchronize()
    assert as_torch.is_cuda and as_torch.tolist() == [0, 2, 0, 0]
    try:
        import cupy
    except ImportError:
        cupy = None
    if cupy is not None:
        assert cupy.from_dlpack(result).get().tolist() == [0, 2, 0, 0]
    try:
        import jax.dlpack
    except ImportError:
        return
    assert np.asarray(jax.dlpack.from_dlpack(result)).tolist() == [0, 2, 0, 0]


def test_dlpack_stream_given_by_a_consumer():
    result = tb.tensor_scatter_nd_add(torch.zeros(4, device="cuda"), [[0]], [1.0], device="cuda",
                                      out_type="tensorbuf")
    consumer = torch.cuda.Stream()
    capsule = result.__dlpack__(stream=consumer.cuda_stream)  # the consumer's stream waits
    imported = tb.from_dlpack(capsule, stream=consumer)
    consumer.synchronize()
    assert imported.get_float_array().tolist() == [1, 0, 0, 0]
