"""torch tensors read directly (python/src/torch_objects.cpp): a plain CPU tensor of every
tensorbuf dtype is borrowed without a DLPack capsule; anything unusual (strided, negative views,
sparse, subclasses) still comes out right, by the general route."""

import gc
import subprocess
import sys

import numpy as np
import pytest
import torch

import tensorbuf as tb

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.bfloat16, torch.float32, torch.float64]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_every_dtype_in_place_writes_the_tensor_memory(dtype):
    t = torch.zeros(3, 2, dtype=dtype)
    pointer = t.data_ptr()
    updates = torch.ones(1, 2, dtype=dtype)
    tb.tensor_scatter_nd_update_in_place(t, torch.tensor([[1]]), updates)
    assert t.data_ptr() == pointer and t.dtype == dtype
    assert t.to(torch.float64).tolist() == [[0, 0], [1, 1], [0, 0]]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_asarray_borrows_without_a_copy(dtype):
    t = torch.arange(6).reshape(2, 3).to(dtype)
    buffer = tb.asarray(t, copy=False)
    assert buffer.shape == (2, 3) and buffer.dtype == str(dtype).removeprefix("torch.")
    assert torch.equal(torch.from_dlpack(buffer.__dlpack__(max_version=None))
                       if dtype != torch.bool else t, t)


def test_the_borrow_keeps_the_tensor_alive_and_references_return():
    t = torch.arange(4, dtype=torch.float32)
    before = sys.getrefcount(t)
    buffer = tb.asarray(t)
    assert sys.getrefcount(t) == before + 1
    del t
    gc.collect()
    assert np.asarray(buffer).tolist() == [0, 1, 2, 3]
    x, i, u = torch.zeros(4), torch.tensor([[1]]), torch.tensor([2.0])
    counts = [sys.getrefcount(v) for v in (x, i, u)]
    for _ in range(3):
        tb.tensor_scatter_nd_add_in_place(x, i, u)
        tb.tensor_scatter_nd_add(x, i, u)
    assert [sys.getrefcount(v) for v in (x, i, u)] == counts
    assert x.tolist() == [0, 6, 0, 0]


def test_a_strided_tensor_is_read_through_a_copy_and_refused_in_place():
    base = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    column = base[:, 1]
    out = tb.tensor_scatter_nd_add(column, [[0]], [10.0])
    assert np.asarray(out).tolist() == [11, 5, 9]
    before = base.clone()
    with pytest.raises(tb.InvalidArgumentError):
        tb.tensor_scatter_nd_add_in_place(column, [[0]], [10.0])
    assert torch.equal(base, before)


def test_a_negative_view_is_read_as_its_values_and_refused_in_place():
    z = torch.tensor([1 + 2j, 3 - 4j], dtype=torch.complex64)
    negative = z.conj().imag  # -imag: [-2, 4], a view with the negative bit
    assert negative.is_neg()
    out = tb.tensor_scatter_nd_add(negative, [[0]], [0.5])
    assert np.asarray(out).tolist() == [-1.5, 4.0]
    with pytest.raises(tb.InvalidArgumentError, match="negative bit"):
        tb.tensor_scatter_nd_add_in_place(negative, [[0]], [0.5])
    assert z.tolist() == [1 + 2j, 3 - 4j]


def test_subclasses_take_the_same_path():
    class Tagged(torch.Tensor):
        pass

    t = torch.zeros(3).as_subclass(Tagged)
    tb.tensor_scatter_nd_add_in_place(t, torch.tensor([[2]]), torch.tensor([1.5]))
    assert t.tolist() == [0, 0, 1.5]
    parameter = torch.nn.Parameter(torch.zeros(3))
    with pytest.raises(tb.InvalidArgumentError, match="requires grad"):
        tb.tensor_scatter_nd_add_in_place(parameter, [[0]], [1.0])
    with torch.no_grad():
        tb.tensor_scatter_nd_add_in_place(parameter, [[0]], [1.0])
    assert parameter.tolist() == [1, 0, 0]


def test_sparse_and_empty_tensors():
    sparse = torch.zeros(3).to_sparse()
    with pytest.raises(Exception):
        tb.tensor_scatter_nd_add_in_place(sparse, [[0]], [1.0])
    empty = torch.zeros(0, 2)
    tb.tensor_scatter_nd_add_in_place(empty, torch.zeros(0, 1, dtype=torch.int64),
                                      torch.zeros(0, 2))
    assert empty.shape == (0, 2)


def test_the_version_counter_is_bumped_once_per_write():
    x = torch.zeros(3)
    version = x._version
    tb.tensor_scatter_nd_add_in_place(x, [[0]], [1.0])
    assert x._version == version + 1


def test_tensorbuf_never_imports_torch_itself():
    code = ("import sys, numpy as np, tensorbuf as tb\n"
            "out = tb.tensor_scatter_nd_add(np.zeros(2), [[0]], [1.0])\n"
            "tb.tensor_scatter_nd_add_in_place(np.zeros(2), [[0]], [1.0])\n"
            "assert type(out) is np.ndarray and out.tolist() == [1, 0]\n"
            "assert 'torch' not in sys.modules, 'tensorbuf imported torch'\n")
    subprocess.run([sys.executable, "-c", code], check=True)
