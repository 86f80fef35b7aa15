"""boolean_mask, boolean_mask_into and compress through Python, against NumPy itself
(t[(slice(None),) * axis + (m,)] and np.compress), on NumPy, torch, list and tb arguments."""

import os

import numpy as np
import pytest

import tensorbuf as tb

CASES = int(os.environ.get("TENSORBUF_RANDOM_CASES", "50"))
DTYPES = [np.float32, np.float64, np.float16, np.int8, np.int16, np.int32, np.int64, np.uint8,
          np.bool_]


def random_tensor(rng, shape, dtype):
    return (rng.standard_normal(shape) * 50).astype(dtype)


def test_boolean_mask_against_numpy():
    rng = np.random.default_rng(5)
    for case in range(CASES * 2):
        dtype = DTYPES[case % len(DTYPES)]
        shape = tuple(int(d) for d in rng.integers(0, 5, size=rng.integers(1, 5)))
        axis = int(rng.integers(0, len(shape)))
        rank = int(rng.integers(1, len(shape) - axis + 1))
        mask = rng.random(shape[axis:axis + rank]) < rng.random()
        tensor = random_tensor(rng, shape, dtype)
        expected = tensor[(slice(None),) * axis + (mask,)]
        spelled_axis = axis - len(shape) if case % 3 == 0 else axis  # negative counts from the end
        out = tb.boolean_mask(tensor, mask, axis=spelled_axis)
        assert out.dtype == expected.dtype and out.shape == expected.shape, (case, shape, axis)
        assert out.tobytes() == expected.tobytes(), (case, shape, axis)


def test_boolean_mask_takes_torch_lists_and_buffers_and_returns_their_type():
    torch = pytest.importorskip("torch")
    t = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    m = torch.tensor([True, False, True])
    out = tb.boolean_mask(t, m)
    assert isinstance(out, torch.Tensor) and torch.equal(out, t[m])
    out = tb.boolean_mask(t, [False, True, True, False], axis=1)
    assert torch.equal(out, t[:, torch.tensor([False, True, True, False])])
    buffer = tb.asarray(np.arange(6, dtype=np.int32))
    out = tb.boolean_mask(buffer, [True, False] * 3)
    assert isinstance(out, tb.TensorBuffer) and out.numpy().tolist() == [0, 2, 4]
    assert isinstance(tb.compress([1, 2, 3], [True, False, True]), np.ndarray)
    assert isinstance(tb.compress(t, m, axis=0, out_type="tensorbuf"), tb.TensorBuffer)


def test_boolean_mask_errors_name_the_problem():
    tensor = np.arange(6, dtype=np.float32).reshape(2, 3)
    with pytest.raises(tb.InvalidArgumentError, match="(?i)mask"):
        tb.boolean_mask(tensor, np.array([1, 0], dtype=np.int32))  # not bool
    with pytest.raises(tb.InvalidArgumentError, match="(?i)mask"):
        tb.boolean_mask(tensor, np.array([True, False, True]))  # shape [3] against dim 2
    with pytest.raises(tb.InvalidArgumentError, match="axis"):
        tb.boolean_mask(tensor, np.array([True, False]), axis=2)
    assert tensor.tolist() == [[0, 1, 2], [3, 4, 5]]


def test_boolean_mask_into_writes_the_callers_arrays():
    tensor = np.arange(10, dtype=np.int64).reshape(5, 2)
    mask = np.array([True, False, True, True, False])
    out = np.full((4, 2), -1, dtype=np.int64)
    count = np.zeros(1, dtype=np.int64)
    assert tb.boolean_mask_into(tensor, mask, out, count) is None
    assert count.tolist() == [3]
    assert out.tolist() == [[0, 1], [4, 5], [6, 7], [-1, -1]]  # the rest left as it was
    small = np.full((2, 2), -1, dtype=np.int64)
    tb.boolean_mask_into(tensor, mask, small, count)
    assert count.tolist() == [3] and small.tolist() == [[0, 1], [4, 5]]  # first min(n, C)


def test_boolean_mask_into_torch_out_bumps_the_version():
    torch = pytest.importorskip("torch")
    tensor = torch.arange(6, dtype=torch.float32)
    out = torch.zeros(6)
    count = torch.zeros(1, dtype=torch.int64)
    before = out._version
    tb.boolean_mask_into(tensor, tensor > 2, out, count)
    assert count.tolist() == [3] and out.tolist() == [3, 4, 5, 0, 0, 0]
    assert out._version > before


def test_boolean_mask_into_refuses_read_only_out():
    tensor = np.arange(4, dtype=np.float32)
    out = np.zeros(4, dtype=np.float32)
    out.flags.writeable = False
    count = np.zeros(1, dtype=np.int64)
    with pytest.raises(ValueError):
        tb.boolean_mask_into(tensor, tensor > 1, out, count)
    assert out.tolist() == [0, 0, 0, 0] and count.tolist() == [0]


def test_compress_against_numpy():
    rng = np.random.default_rng(17)
    for case in range(CASES * 2):
        dtype = DTYPES[case % len(DTYPES)]
        shape = tuple(int(d) for d in rng.integers(1, 5, size=rng.integers(1, 4)))
        tensor = random_tensor(rng, shape, dtype)
        axis = None if case % 4 == 0 else int(rng.integers(-len(shape), len(shape)))
        length = tensor.size if axis is None else shape[axis]
        condition = rng.random(int(rng.integers(0, length + 1))) < 0.5  # shorter counts as false
        expected = np.compress(condition, tensor, axis=axis)
        out = tb.compress(tensor, condition, axis=axis)
        assert out.shape == expected.shape and out.tobytes() == expected.tobytes(), (case, axis)


def test_compress_longer_condition_may_only_be_false_past_the_end():
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    assert tb.compress(x, [True, False, True, False, False], axis=0).tolist() == [
        [0, 1], [4, 5]]
    with pytest.raises(tb.InvalidArgumentError):
        tb.compress(x, [True, False, True, True], axis=0)


def test_mask_read_ops_are_in_the_package_namespace():
    assert {"boolean_mask", "boolean_mask_into", "compress"} <= set(tb.__all__)
