"""Like in, like out (spec/interop.md I3, python/src/result_type.cpp): an out-of-place op returns
the type of its `tensor` argument without a copy (torch -> torch, tb.TensorBuffer ->
tb.TensorBuffer, NumPy / lists -> NumPy), and out_type overrides."""

import gc
import sys

import numpy as np
import pytest
import torch

import tensorbuf as tb


def scatter(tensor, **kwargs):
    return tb.tensor_scatter_nd_add(tensor, [[1]], [5], **kwargs)


def test_numpy_and_lists_give_numpy():
    out = scatter(np.arange(3, dtype=np.int32))
    assert type(out) is np.ndarray and out.dtype == np.int32 and out.tolist() == [0, 6, 2]
    assert out.flags.writeable
    out = scatter([1.5, 2.5])
    assert type(out) is np.ndarray and out.dtype == np.float64 and out.tolist() == [1.5, 7.5]
    out = tb.boolean_mask_update([True, False], [False, True], True)
    assert type(out) is np.ndarray and out.dtype == np.bool_ and out.tolist() == [True, True]


@pytest.mark.parametrize("dtype", [torch.uint8, torch.int8, torch.int16, torch.int32,
                                   torch.int64, torch.float16, torch.bfloat16, torch.float32,
                                   torch.float64], ids=str)
def test_torch_gives_torch_of_the_same_dtype(dtype):
    source = torch.arange(4).to(dtype)
    out = scatter(source)
    assert type(out) is torch.Tensor and out.dtype == dtype and out.device.type == "cpu"
    assert out.tolist() == [0, 6, 2, 3] and source.tolist() == [0, 1, 2, 3]
    assert not out.requires_grad and out.is_contiguous()
    out[0] = 9  # torch's own memory to write
    assert out.tolist() == [9, 6, 2, 3]


def test_torch_bool_results_are_bool_tensors():
    mask = torch.tensor([True, False, True])
    out = tb.boolean_mask_update(torch.zeros(3, dtype=torch.bool), mask, True)
    assert type(out) is torch.Tensor and out.dtype == torch.bool
    assert out.tolist() == [True, False, True]
    out[1] = True
    assert out.tolist() == [True, True, True]
    as_torch = tb.boolean_mask_update(np.zeros(2, np.bool_), [True, False], True, out_type="torch")
    assert as_torch.dtype == torch.bool and as_torch.tolist() == [True, False]


def test_tensorbuffer_gives_tensorbuffer():
    out = scatter(tb.asarray(np.zeros(2, np.float32)))
    assert type(out) is tb.TensorBuffer and out.dtype == "float32"
    assert np.asarray(out).tolist() == [0, 5]


def test_out_type_overrides():
    t = torch.zeros(2)
    a = np.zeros(2, np.float32)
    b = tb.asarray(np.zeros(2, np.float32))
    for source in (t, a, b):
        assert type(scatter(source, out_type="tensorbuf")) is tb.TensorBuffer
        assert type(scatter(source, out_type="numpy")) is np.ndarray
        assert type(scatter(source, out_type="torch")) is torch.Tensor
        for kind in ("numpy", "torch", "tensorbuf", "same"):
            assert np.asarray(scatter(source, out_type=kind)).tolist() == [0, 5]
    assert type(scatter(t, out_type="same")) is torch.Tensor
    with pytest.raises(tb.InvalidArgumentError, match="out_type must be"):
        scatter(t, out_type="cupy")
    with pytest.raises(TypeError, match="bfloat16"):
        scatter(torch.zeros(2, dtype=torch.bfloat16), out_type="numpy")


def test_results_are_not_copied():
    # The same allocations as the tb.TensorBuffer result: torch and NumPy take its memory.
    source = np.zeros(1000, np.float32)
    counts = {}
    for kind in ("tensorbuf", "numpy", "torch"):
        scatter(source, out_type=kind)  # warm-up
        tb.reset_stats()
        scatter(source, out_type=kind)
        counts[kind] = tb.stats()["host_allocations"]
    assert counts["numpy"] == counts["torch"] == counts["tensorbuf"], counts


def test_results_outlive_their_arguments():
    out = scatter(torch.arange(4, dtype=torch.float32))
    view = out[1:]
    del out
    gc.collect()
    assert view.tolist() == [6, 2, 3]
    array = scatter(np.arange(3, dtype=np.float64))
    gc.collect()
    assert array.tolist() == [0, 6, 2]


def test_a_read_only_source_still_gives_a_writable_independent_torch_tensor():
    frozen = np.arange(3, dtype=np.float32)
    frozen.flags.writeable = False
    for indices, updates in (([[1]], [5.0]), (np.zeros((0, 1), np.int64), np.zeros(0, np.float32))):
        out = tb.tensor_scatter_nd_add(frozen, indices, updates, out_type="torch")
        out[0] = 7
        assert out[0].item() == 7 and frozen.tolist() == [0, 1, 2]


def test_cupy_arrays_give_cupy_arrays(monkeypatch):
    # A stand-in for CuPy (not installed here; tests/python/test_gpu.py has the real one):
    # an array type of a module named cupy, and cupy.from_dlpack, which tensorbuf calls.
    import types

    fake = types.ModuleType("cupy")

    class ndarray:  # noqa: N801 (CuPy's name)
        def __init__(self, values):
            self.values = values

        def __dlpack__(self, stream=None):
            return self.values.__dlpack__(stream=stream)

        def __dlpack_device__(self):
            return self.values.__dlpack_device__()

    ndarray.__module__ = "cupy"
    fake.ndarray = ndarray
    fake.from_dlpack = lambda producer: ndarray(np.from_dlpack(producer))
    monkeypatch.setitem(sys.modules, "cupy", fake)
    out = scatter(ndarray(np.zeros(3, np.float32)))
    assert type(out) is ndarray and out.values.tolist() == [0, 5, 0]
    assert type(scatter(ndarray(np.zeros(3, np.float32)), out_type="numpy")) is np.ndarray
