"""gather_nd through Python (docs/gather_nd.md), against references written here with NumPy's
and torch's own fancy indexing (params[tuple(indices moved to the front)], batch by batch), on
NumPy, torch, list and tb arguments; the out_of_bounds words, the exact error texts, like in like
out."""

import os

import numpy as np
import pytest

import tensorbuf as tb

CASES = int(os.environ.get("TENSORBUF_RANDOM_CASES", "50"))
DTYPES = [np.float32, np.float64, np.float16, np.int8, np.int16, np.int32, np.int64, np.uint8,
          np.bool_]


def numpy_gather_nd(params, indices, batch_dims=0):
    """The reference: NumPy fancy indexing per batch (indices' last dim spread over the axes)."""
    batch = params.shape[:batch_dims]
    out = np.empty(indices.shape[:-1] + params.shape[batch_dims + indices.shape[-1]:],
                   params.dtype)
    for b in np.ndindex(*batch):
        rows = indices[b]
        out[b] = params[b][tuple(np.moveaxis(rows, -1, 0))]
    return out


def random_case(rng, case):
    dtype = DTYPES[case % len(DTYPES)]
    batch_dims = int(rng.integers(0, 3))
    rank = batch_dims + int(rng.integers(1, 4))
    shape = tuple(int(d) for d in rng.integers(1, 5, size=rank))
    depth = int(rng.integers(1, rank - batch_dims + 1))
    rows = tuple(int(d) for d in rng.integers(0, 4, size=int(rng.integers(0, 3))))
    indices = np.stack([rng.integers(0, shape[batch_dims + k], size=shape[:batch_dims] + rows)
                        for k in range(depth)], axis=-1)
    indices = indices.astype(np.int32 if case % 2 else np.int64)
    params = (rng.standard_normal(shape) * 50).astype(dtype)
    return params, indices, batch_dims


def test_gather_nd_against_numpy():
    rng = np.random.default_rng(36)
    for case in range(CASES * 2):
        params, indices, batch_dims = random_case(rng, case)
        kept = indices.copy()
        expected = numpy_gather_nd(params, indices, batch_dims)
        out = tb.gather_nd(params, indices, batch_dims=batch_dims)
        assert isinstance(out, np.ndarray)
        assert out.dtype == expected.dtype and out.shape == expected.shape, (case, batch_dims)
        assert out.tobytes() == expected.tobytes(), (case, batch_dims)
        assert np.array_equal(indices, kept)


def test_gather_nd_against_torch_indexing_returns_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(7)
    for case in range(CASES):
        params, indices, batch_dims = random_case(rng, case)
        if params.dtype == np.float16:
            params = params.astype(np.float32)
        t = torch.from_numpy(params)
        i = torch.from_numpy(indices).long()
        expected = torch.stack([t[b][tuple(i[b].unbind(-1))]
                                for b in np.ndindex(*params.shape[:batch_dims])]
                               ) if batch_dims else t[tuple(i.unbind(-1))]
        expected = expected.reshape(indices.shape[:-1] + params.shape[batch_dims
                                                                      + indices.shape[-1]:])
        out = tb.gather_nd(t, i, batch_dims=batch_dims)
        assert isinstance(out, torch.Tensor) and out.dtype == t.dtype
        assert torch.equal(out, expected), (case, batch_dims)


def test_gather_nd_documented_values():
    # ONNX GatherND's examples and one TensorFlow case, values written out.
    assert tb.gather_nd([[0, 1], [2, 3]], [[0, 0], [1, 1]]).tolist() == [0, 3]
    assert tb.gather_nd([[0, 1], [2, 3]], [[1], [0]]).tolist() == [[2, 3], [0, 1]]
    params = np.arange(8, dtype=np.int32).reshape(2, 2, 2)
    assert tb.gather_nd(params, [[1], [0]], batch_dims=1).tolist() == [[2, 3], [4, 5]]
    assert tb.gather_nd(params, [[[0, 1]], [[1, 0]]]).tolist() == [[[2, 3]], [[4, 5]]]
    # A full-depth index of a scalar: shape [].
    assert tb.gather_nd(np.array([8, 1, 2, 3, 7, 5], np.float32), [4]).shape == ()


def test_gather_nd_result_types():
    torch = pytest.importorskip("torch")
    buffer = tb.asarray(np.arange(6, dtype=np.float32).reshape(3, 2))
    out = tb.gather_nd(buffer, np.array([[2], [0]], np.int64))
    assert isinstance(out, tb.TensorBuffer) and out.numpy().tolist() == [[4, 5], [0, 1]]
    out = tb.gather_nd(buffer, [[1, 1]], out_type="numpy")
    assert isinstance(out, np.ndarray) and out.tolist() == [3]
    out = tb.gather_nd(np.arange(4), [[3]], out_type="torch")
    assert isinstance(out, torch.Tensor) and out.tolist() == [3]


def test_gather_nd_out_of_bounds():
    params = np.arange(6, dtype=np.float32).reshape(2, 3)
    indices = np.array([[1, 2], [0, 3], [-1, 0]], np.int32)
    for policy in ("default", "error"):  # the CPU's default is error
        with pytest.raises(tb.InvalidArgumentError) as raised:
            tb.gather_nd(params, indices, out_of_bounds=policy)
        assert str(raised.value) == "indices[1] = [0, 3] does not index into shape [2,3]"
    # Drop: a bad row's slice is zeros; negative components are out of range, not wrapped.
    assert tb.gather_nd(params, indices, out_of_bounds="drop").tolist() == [5, 0, 0]
    assert indices.tolist() == [[1, 2], [0, 3], [-1, 0]]
    with pytest.raises(tb.InvalidArgumentError, match="out_of_bounds"):
        tb.gather_nd(params, indices, out_of_bounds="wrap")


def test_gather_nd_errors_name_the_problem():
    params = np.zeros((2, 3), np.float32)

    def text(indices, **kwargs):
        with pytest.raises(tb.InvalidArgumentError) as raised:
            tb.gather_nd(params, indices, **kwargs)
        return str(raised.value)

    assert text(np.zeros((1, 1), np.int16)) == (
        "gather_nd: indices must be int32 or int64, got int16")
    assert text(np.zeros((2, 1), np.int32), batch_dims=2) == (
        "gather_nd: batch_dims = 2 must be between 0 and indices.rank - 1 = 1 (indices shape "
        "[2,1])")
    assert text(np.zeros((1, 3), np.int32)) == (
        "gather_nd: index depth indices.shape[-1] = 3 must be between 1 and params.rank - "
        "batch_dims = 2 (indices shape [1,3], params shape [2,3], batch_dims 0)")
    assert text(np.zeros((3, 1), np.int32), batch_dims=1) == (
        "gather_nd: the batch dims of params [2] and indices [3] differ (batch_dims 1, params "
        "shape [2,3], indices shape [3,1])")
    assert not params.any()


def test_gather_nd_is_in_the_package_namespace():
    assert "gather_nd" in tb.__all__
