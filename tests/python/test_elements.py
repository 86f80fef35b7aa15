"""gather, gather_elements and scatter_elements through Python (docs/elements.md), against
independent references: NumPy's np.take, np.take_along_axis and np.put_along_axis, torch.gather
and torch.scatter_reduce (include_self=True, spec/indexing.md 2), and plain loops over
np.ndindex; on NumPy, torch, list and tb arguments; negative indices, both out_of_bounds
policies, the exact error texts and classes, like in like out."""

import os
import pathlib
import re

import numpy as np
import pytest

import tensorbuf as tb

CASES = int(os.environ.get("TENSORBUF_RANDOM_CASES", "50"))
DTYPES = [np.float32, np.float64, np.float16, np.int8, np.int16, np.int32, np.int64, np.uint8,
          np.bool_]
REDUCTIONS = ("none", "add", "mul", "min", "max")


def random_values(rng, shape, dtype):
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -100), min(info.max, 100) + 1, size=shape).astype(dtype)
    return (rng.standard_normal(shape) * 10).astype(dtype)


def random_indices(rng, size, shape, index_dtype, negative):
    """Indices in [0, size), or in [-size, size) with `negative`."""
    low = -size if negative else 0
    return rng.integers(low, size, size=shape).astype(index_dtype)


# ---------------------------------------------------------------------------------------------
# gather


def numpy_gather(params, indices, axis, batch_dims):
    """np.take per batch: the reference for ONNX Gather / tf.gather with batch_dims."""
    if batch_dims == 0:
        return np.take(params, indices, axis=axis)
    out_shape = (params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis + 1:])
    out = np.empty(out_shape, params.dtype)
    for b in np.ndindex(*params.shape[:batch_dims]):
        out[b] = np.take(params[b], indices[b], axis=axis - batch_dims)
    return out


def random_gather_case(rng, case):
    dtype = DTYPES[case % len(DTYPES)]
    rank = int(rng.integers(1, 5))
    shape = tuple(int(d) for d in rng.integers(1, 5, size=rank))
    axis = int(rng.integers(0, rank))
    batch_dims = int(rng.integers(0, axis + 1)) if case % 3 == 0 else 0
    rows = tuple(int(d) for d in rng.integers(0, 4, size=int(rng.integers(0, 3))))
    indices = random_indices(rng, shape[axis], shape[:batch_dims] + rows,
                             np.int32 if case % 2 else np.int64, negative=case % 4 == 1)
    params = random_values(rng, shape, dtype)
    # A negative axis counts from the end.
    given_axis = axis - rank if case % 5 == 2 else axis
    return params, indices, axis, given_axis, batch_dims


def test_gather_against_numpy_take():
    rng = np.random.default_rng(36)
    for case in range(CASES * 2):
        params, indices, axis, given_axis, batch_dims = random_gather_case(rng, case)
        kept = indices.copy()
        expected = numpy_gather(params, indices, axis, batch_dims)
        out = tb.gather(params, indices, axis=given_axis, batch_dims=batch_dims)
        assert isinstance(out, np.ndarray)
        assert out.dtype == expected.dtype and out.shape == expected.shape, (case, axis)
        assert out.tobytes() == expected.tobytes(), (case, axis, batch_dims)
        assert np.array_equal(indices, kept)


def test_gather_against_torch_index_select_returns_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(7)
    for case in range(CASES):
        params, indices, axis, given_axis, _ = random_gather_case(rng, case)
        t = torch.from_numpy(params)
        i = torch.from_numpy(indices).long()
        flat = torch.where(i < 0, i + params.shape[axis], i).reshape(-1)
        expected = torch.index_select(t, axis, flat).reshape(
            params.shape[:axis] + indices.shape + params.shape[axis + 1:])
        out = tb.gather(t, i, axis=given_axis)
        assert isinstance(out, torch.Tensor) and out.dtype == t.dtype
        assert torch.equal(out, expected), case


def test_gather_documented_values():
    # ONNX Gather's examples: axis 0 and axis 1.
    data = [[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]]
    assert tb.gather(np.array(data, np.float32), [[0, 1], [1, 2]]).tolist() == (
        np.array([[[1.0, 1.2], [2.3, 3.4]], [[2.3, 3.4], [4.5, 5.7]]], np.float32).tolist())
    data = np.array([[1.0, 1.2, 1.9], [2.3, 3.4, 3.9], [4.5, 5.7, 5.9]], np.float32)
    assert tb.gather(data, [[0, 2]], axis=1).tolist() == (
        np.array([[[1.0, 1.9]], [[2.3, 3.9]], [[4.5, 5.9]]], np.float32).tolist())
    # A scalar index drops the axis; -1 is the last element.
    assert tb.gather(np.arange(6).reshape(2, 3), np.int64(-1), axis=1).tolist() == [2, 5]
    # batch_dims = 1: each row of params takes its own indices (tf.gather).
    params = np.arange(6, dtype=np.int32).reshape(2, 3)
    assert tb.gather(params, [[2, 0], [1, 1]], axis=1, batch_dims=1).tolist() == (
        [[2, 0], [4, 4]])


def test_gather_out_of_bounds():
    params = np.arange(6, dtype=np.float32).reshape(2, 3)
    indices = np.array([[1, -3], [3, 0], [-4, 2]], np.int32)
    for policy in ("default", "error"):  # the CPU's default is error
        with pytest.raises(tb.InvalidArgumentError) as raised:
            tb.gather(params, indices, axis=1, out_of_bounds=policy)
        assert str(raised.value) == "indices[1,0] = 3 is out of range for axis 1 of shape [2,3]"
    # Drop: a bad index gives zeros; -3 wraps once to 0, -4 is out of range.
    out = tb.gather(params, indices, axis=1, out_of_bounds="drop")
    assert out.tolist() == [[[1, 0], [0, 0], [0, 2]], [[4, 3], [0, 3], [0, 5]]]
    assert indices.tolist() == [[1, -3], [3, 0], [-4, 2]]
    with pytest.raises(tb.InvalidArgumentError) as raised:
        tb.gather(params, np.int32(2))
    assert str(raised.value) == "indices = 2 is out of range for axis 0 of shape [2,3]"
    with pytest.raises(tb.InvalidArgumentError, match="out_of_bounds"):
        tb.gather(params, indices, out_of_bounds="wrap")


def test_gather_errors_name_the_problem():
    params = np.zeros((2, 3), np.float32)

    def text(indices, **kwargs):
        with pytest.raises(tb.InvalidArgumentError) as raised:
            tb.gather(params, indices, **kwargs)
        return str(raised.value)

    assert text(np.zeros(1, np.int16)) == "gather: indices must be int32 or int64, got int16"
    assert text(np.zeros(1, np.float32)) == (
        "gather: indices must be int32 or int64, got float32")
    assert text(np.zeros(1, np.int32), axis=2) == (
        "gather: axis = 2 is out of range for params of rank 2 (shape [2,3])")
    assert text(np.zeros(1, np.int32), axis=-3) == (
        "gather: axis = -3 is out of range for params of rank 2 (shape [2,3])")
    assert text(np.zeros((2, 1), np.int32), axis=1, batch_dims=-1) == (
        "gather: batch_dims = -1 must be between 0 and indices.rank = 2 (indices shape [2,1])")
    assert text(np.zeros((2, 1), np.int32), axis=0, batch_dims=1) == (
        "gather: batch_dims = 1 must not exceed axis = 0 (params shape [2,3])")
    assert text(np.zeros((3, 1), np.int32), axis=1, batch_dims=1) == (
        "gather: the batch dims of params [2] and indices [3] differ (batch_dims 1, params "
        "shape [2,3], indices shape [3,1])")
    with pytest.raises(tb.InvalidArgumentError) as raised:
        tb.gather(np.float32(1), np.zeros(1, np.int32))
    assert str(raised.value) == "gather: params must have rank >= 1, got a scalar"
    with pytest.raises(TypeError):
        tb.gather(params, np.zeros(1, np.int32), axis="1")
    assert not params.any()


# ---------------------------------------------------------------------------------------------
# gather_elements


def numpy_take_along_axis(params, indices, axis):
    """np.take_along_axis over params cut to indices' extent off the axis (PyTorch's rule that
    indices.shape[d] <= params.shape[d] there; take_along_axis itself wants equal dims)."""
    cut = tuple(slice(None) if d == axis else slice(0, n) for d, n in enumerate(indices.shape))
    return np.take_along_axis(params[cut], indices, axis=axis)


def random_elements_case(rng, case, index_dtype=None):
    dtype = DTYPES[case % len(DTYPES)]
    rank = int(rng.integers(1, 5))
    shape = tuple(int(d) for d in rng.integers(1, 5, size=rank))
    axis = int(rng.integers(0, rank))
    # Off the axis indices are at most params' dims; along it any size.
    ishape = tuple(int(rng.integers(0, 6)) if d == axis else int(rng.integers(1, n + 1))
                   for d, n in enumerate(shape))
    if index_dtype is None:
        index_dtype = np.int32 if case % 2 else np.int64
    indices = random_indices(rng, shape[axis], ishape, index_dtype, negative=case % 4 == 1)
    params = random_values(rng, shape, dtype)
    given_axis = axis - rank if case % 5 == 2 else axis
    return params, indices, axis, given_axis


def test_gather_elements_against_numpy_take_along_axis():
    rng = np.random.default_rng(3)
    for case in range(CASES * 2):
        params, indices, axis, given_axis = random_elements_case(rng, case)
        kept = indices.copy()
        expected = numpy_take_along_axis(params, indices, axis)
        out = tb.gather_elements(params, indices, axis=given_axis)
        assert isinstance(out, np.ndarray)
        assert out.dtype == expected.dtype and out.shape == expected.shape, case
        assert out.tobytes() == expected.tobytes(), (case, axis)
        assert np.array_equal(indices, kept)


def test_gather_elements_against_torch_gather_returns_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(11)
    for case in range(CASES):
        params, indices, axis, given_axis = random_elements_case(rng, case)
        t = torch.from_numpy(params)
        i = torch.from_numpy(indices).long()
        # torch.gather takes no negative index: wrapped here, the op gets them as they are.
        expected = torch.gather(t, axis, torch.where(i < 0, i + params.shape[axis], i))
        out = tb.gather_elements(t, i, axis=given_axis)
        assert isinstance(out, torch.Tensor) and out.dtype == t.dtype
        assert torch.equal(out, expected), case


def test_gather_elements_documented_values():
    # ONNX GatherElements' examples.
    assert tb.gather_elements([[1, 2], [3, 4]], [[0, 0], [1, 0]], axis=1).tolist() == (
        [[1, 1], [4, 3]])
    data = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert tb.gather_elements(data, [[1, 2, 0], [2, 0, 0]]).tolist() == [[4, 8, 3], [7, 2, 3]]
    assert tb.gather_elements(data, [[-1, -2, 0], [-2, 0, 0]]).tolist() == (
        [[7, 5, 3], [4, 2, 3]])


def test_gather_elements_out_of_bounds():
    params = np.arange(1, 10, dtype=np.int64).reshape(3, 3)
    indices = np.array([[0, 1], [7, -4], [-3, 2]], np.int64)
    for policy in ("default", "error"):
        with pytest.raises(tb.InvalidArgumentError) as raised:
            tb.gather_elements(params, indices, axis=1, out_of_bounds=policy)
        assert str(raised.value) == "indices[1,0] = 7 is out of range for axis 1 of shape [3,3]"
    out = tb.gather_elements(params, indices, axis=1, out_of_bounds="drop")
    assert out.tolist() == [[1, 2], [0, 0], [7, 9]]


def test_gather_elements_errors_name_the_problem():
    params = np.zeros((2, 3), np.float32)

    def text(indices, **kwargs):
        with pytest.raises(tb.InvalidArgumentError) as raised:
            tb.gather_elements(params, indices, **kwargs)
        return str(raised.value)

    assert text(np.zeros((1, 1), np.uint8)) == (
        "gather_elements: indices must be int32 or int64, got uint8")
    assert text(np.zeros((1, 1), np.int32), axis=2) == (
        "gather_elements: axis = 2 is out of range for params of rank 2 (shape [2,3])")
    assert text(np.zeros(2, np.int32)) == (
        "gather_elements: indices shape [2] must have the rank of params shape [2,3]")
    assert text(np.zeros((1, 4), np.int32)) == (
        "gather_elements: indices.shape[1] = 4 exceeds params.shape[1] = 3 (indices shape "
        "[1,4], params shape [2,3], axis 0)")
    with pytest.raises(tb.InvalidArgumentError) as raised:
        tb.gather_elements(np.int32(1), np.int32(0))
    assert str(raised.value) == "gather_elements: params must have rank >= 1, got a scalar"


# ---------------------------------------------------------------------------------------------
# scatter_elements


def loop_scatter_elements(tensor, indices, updates, axis, reduction):
    """The reference: positions of indices in row-major order, each combined into its target in
    the tensor's dtype (NumPy scalar arithmetic rounds float16 after every step, integers wrap);
    min / max propagate NaN."""
    out = tensor.copy()
    size = tensor.shape[axis]
    with np.errstate(over="ignore"):
        for p in np.ndindex(*indices.shape):
            q = list(p)
            q[axis] = int(indices[p]) + (size if indices[p] < 0 else 0)
            q = tuple(q)
            u = updates[p]
            if reduction == "none":
                out[q] = u
            elif reduction == "add":
                out[q] = out[q] + u
            elif reduction == "mul":
                out[q] = out[q] * u
            elif reduction == "min":
                out[q] = u if np.isnan(u) or u < out[q] else out[q]
            else:
                out[q] = u if np.isnan(u) or u > out[q] else out[q]
    return out


def random_scatter_case(rng, case, dtype=None):
    if dtype is None:
        dtype = DTYPES[case % len(DTYPES)]
    tensor, indices, axis, given_axis = random_elements_case(rng, case)
    tensor = random_values(rng, tensor.shape, dtype)
    updates = random_values(rng, indices.shape, dtype)
    reduction = REDUCTIONS[case % len(REDUCTIONS)] if dtype != np.bool_ else "none"
    return tensor, indices, updates, axis, given_axis, reduction


def test_scatter_elements_against_a_loop():
    rng = np.random.default_rng(2)
    for case in range(CASES * 4):
        tensor, indices, updates, axis, given_axis, reduction = random_scatter_case(rng, case)
        kept = tensor.copy()
        expected = loop_scatter_elements(tensor, indices, updates, axis, reduction)
        out = tb.scatter_elements(tensor, indices, updates, axis=given_axis, reduction=reduction)
        assert isinstance(out, np.ndarray)
        assert out.dtype == expected.dtype and out.shape == expected.shape
        assert out.tobytes() == expected.tobytes(), (case, axis, reduction)
        assert np.array_equal(tensor, kept)  # out of place: the input is untouched


def test_scatter_elements_in_place_against_a_loop():
    rng = np.random.default_rng(5)
    for case in range(CASES * 2):
        tensor, indices, updates, axis, given_axis, reduction = random_scatter_case(rng, case)
        expected = loop_scatter_elements(tensor, indices, updates, axis, reduction)
        assert tb.scatter_elements_in_place(tensor, indices, updates, axis=given_axis,
                                            reduction=reduction) is None
        assert tensor.tobytes() == expected.tobytes(), (case, axis, reduction)


def test_scatter_elements_against_numpy_put_along_axis():
    # reduction "none" with distinct targets per lane: np.put_along_axis, whose order for
    # duplicates NumPy leaves open, is exact here.
    rng = np.random.default_rng(17)
    for case in range(CASES):
        shape = tuple(int(d) for d in rng.integers(1, 5, size=int(rng.integers(1, 4))))
        axis = int(rng.integers(0, len(shape)))
        tensor = random_values(rng, shape, DTYPES[case % len(DTYPES)])
        indices = np.argsort(rng.random(shape), axis=axis)  # a permutation along the axis
        indices = np.take(indices, np.arange(int(rng.integers(0, shape[axis] + 1))), axis=axis)
        indices = indices - shape[axis] * (case % 2)  # the negative spelling of the same targets
        updates = random_values(rng, indices.shape, tensor.dtype)
        expected = tensor.copy()
        np.put_along_axis(expected, indices % shape[axis], updates, axis=axis)
        out = tb.scatter_elements(tensor, indices, updates, axis=axis)
        assert out.tobytes() == expected.tobytes(), case


def has_duplicate_targets(indices, axis):
    lanes = np.moveaxis(indices, axis, -1).reshape(-1, indices.shape[axis]) if indices.size else []
    return any(len(set(lane)) != len(lane) for lane in np.asarray(lanes).tolist())


TORCH_REDUCE = {"add": "sum", "mul": "prod", "min": "amin", "max": "amax"}


@pytest.mark.filterwarnings("ignore:scatter_reduce:UserWarning")  # torch 1.13: "in beta"
def test_scatter_elements_against_torch_scatter_reduce():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(23)
    checked = 0
    for case in range(CASES * 2):
        # Integers make the sum and product exact in any order; floats for min and max.
        dtype = (np.int32, np.int64, np.float32, np.float64)[case % 4]
        tensor, indices, updates, axis, given_axis, reduction = random_scatter_case(rng, case,
                                                                                    dtype)
        t = torch.from_numpy(tensor)
        i = torch.from_numpy(indices).long()
        u = torch.from_numpy(updates)
        wrapped = torch.where(i < 0, i + tensor.shape[axis], i)
        if reduction == "none":
            # torch.scatter leaves duplicates' order open: compare lanes without duplicates.
            if has_duplicate_targets(wrapped.numpy(), axis):
                continue
            expected = t.clone().scatter_(axis, wrapped, u)
        elif reduction in ("add", "mul") and dtype in (np.float32, np.float64):
            continue
        else:
            expected = t.clone().scatter_reduce_(axis, wrapped, u, TORCH_REDUCE[reduction],
                                                 include_self=True)
        out = tb.scatter_elements(t, i, u, axis=given_axis, reduction=reduction)
        assert isinstance(out, torch.Tensor) and out.dtype == t.dtype
        assert torch.equal(out, expected), (case, reduction)
        in_place = t.clone()
        version = in_place._version
        tb.scatter_elements_in_place(in_place, i, u, axis=given_axis, reduction=reduction)
        assert torch.equal(in_place, expected), (case, reduction)
        assert in_place._version > version  # autograd sees the write
        checked += 1
    assert checked >= CASES // 2


def test_scatter_elements_documented_values():
    # ONNX ScatterElements' examples (with_axis, and -2 spelling its column 3), and every
    # reduction on duplicates.
    data = np.zeros((3, 3), np.float32)
    indices = np.array([[1, 0, 2], [0, 2, 1]], np.int64)
    updates = np.array([[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]], np.float32)
    assert tb.scatter_elements(data, indices, updates).tolist() == (
        np.array([[2.0, 1.1, 0.0], [1.0, 0.0, 2.2], [0.0, 2.1, 1.2]], np.float32).tolist())
    data = np.array([[1.0, 2.0, 3.0, 4.0, 5.0]], np.float32)
    updates = np.array([[1.1, 2.1]], np.float32)
    for indices in ([[1, 3]], [[1, -2]]):
        assert tb.scatter_elements(data, indices, updates, axis=1).tolist() == (
            np.array([[1.0, 1.1, 3.0, 2.1, 5.0]], np.float32).tolist())
    dup = np.array([[1, 1]], np.int64)
    data64 = np.array([[1.0, 2.0, 3.0, 4.0, 5.0]])
    updates64 = np.array([[1.1, 2.1]])
    expected = {"none": 2.1,  # the last duplicate wins on the CPU
                "add": (2.0 + 1.1) + 2.1,
                "mul": (2.0 * 1.1) * 2.1,
                "min": 1.1,
                "max": 2.1}
    for reduction, value in expected.items():
        out = tb.scatter_elements(data64, dup, updates64, axis=1, reduction=reduction)
        assert out.tolist() == [[1.0, value, 3.0, 4.0, 5.0]], reduction
    # NaN propagates through min / max.
    out = tb.scatter_elements(np.array([1.0, np.nan, 3.0]), [0, 1, 2], [np.nan, 0.0, 5.0],
                              reduction="min")
    assert np.isnan(out[0]) and np.isnan(out[1]) and out[2] == 3.0
    # Integers wrap.
    assert tb.scatter_elements(np.array([120], np.int8), [0], [10], reduction="add").tolist() == (
        [-126])


def test_scatter_elements_out_of_bounds_writes_nothing_unless_dropped():
    tensor = np.arange(9, dtype=np.int32).reshape(3, 3)
    indices = np.array([[0, 2], [7, -1], [-4, 1]], np.int32)
    updates = np.array([[10, 20], [30, 40], [50, 60]], np.int32)
    for policy in ("default", "error"):
        with pytest.raises(tb.InvalidArgumentError) as raised:
            tb.scatter_elements_in_place(tensor, indices, updates, axis=1, out_of_bounds=policy)
        assert str(raised.value) == "indices[1,0] = 7 is out of range for axis 1 of shape [3,3]"
        assert tensor.tolist() == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
        with pytest.raises(tb.InvalidArgumentError):
            tb.scatter_elements(tensor, indices, updates, axis=1, out_of_bounds=policy)
    out = tb.scatter_elements(tensor, indices, updates, axis=1, out_of_bounds="drop",
                              reduction="add")
    assert out.tolist() == [[10, 1, 22], [3, 4, 45], [6, 67, 8]]
    tb.scatter_elements_in_place(tensor, indices, updates, axis=1, out_of_bounds="drop")
    assert tensor.tolist() == [[10, 1, 20], [3, 4, 40], [6, 60, 8]]


def test_scatter_elements_errors_name_the_problem():
    tensor = np.zeros((2, 3), np.float32)

    def error(indices, updates, error_class=tb.InvalidArgumentError, **kwargs):
        with pytest.raises(error_class) as raised:
            tb.scatter_elements(tensor, indices, updates, **kwargs)
        return str(raised.value)

    i = np.zeros((1, 2), np.int32)
    u = np.ones((1, 2), np.float32)
    assert error(i.astype(np.float64), u) == (
        "scatter_elements: indices must be int32 or int64, got float64")
    assert error(i, u, axis=-3) == (
        "scatter_elements: axis = -3 is out of range for tensor of rank 2 (shape [2,3])")
    assert error(i, np.ones((2, 1), np.float32)) == (
        "scatter_elements: updates shape [2,1] must equal indices shape [1,2]")
    # NumPy updates of another dtype are converted (python/src/to_tensor.hpp); a TensorBuffer
    # (or torch tensor) keeps its dtype, which must be the tensor's.
    out = tb.scatter_elements(tensor, i, np.array([[2.5, 7.0]]))
    assert out.dtype == np.float32 and out.tolist() == [[2.5, 7.0, 0], [0, 0, 0]]
    assert error(i, tb.asarray(u.astype(np.float64))) == (
        "scatter_elements: updates must have the tensor's dtype float32, got float64")
    assert error(np.zeros((1, 4), np.int32), np.ones((1, 4), np.float32)) == (
        "scatter_elements: indices.shape[1] = 4 exceeds tensor.shape[1] = 3 (indices shape "
        "[1,4], tensor shape [2,3], axis 0)")
    assert error(i, u, reduction="sum") == (
        "reduction must be none, add, mul, min or max, not 'sum'")
    with pytest.raises(tb.InvalidArgumentError) as raised:
        tb.scatter_elements(np.zeros(3, np.bool_), [0], [True], reduction="add")
    assert str(raised.value) == "scatter_elements: reduction add is not defined on bool"
    assert tb.scatter_elements(np.zeros(3, np.bool_), [2, -3], [True, True]).tolist() == (
        [True, False, True])
    assert not tensor.any()
    # In place needs memory it can write.
    read_only = np.zeros(3, np.float32)
    read_only.flags.writeable = False
    with pytest.raises(tb.InvalidArgumentError) as raised:
        tb.scatter_elements_in_place(read_only, [0], [1.0])
    assert str(raised.value) == (
        "tensor: an in-place op writes the ndarray itself, and this one is read-only")


@pytest.mark.skipif(not tb.cuda_available(), reason="no usable CUDA device")
def test_cuda_equals_the_references():
    rng = np.random.default_rng(41)
    for case in range(CASES):
        params, indices, axis, given_axis, batch_dims = random_gather_case(rng, case)
        out = tb.gather(params, indices, axis=given_axis, batch_dims=batch_dims, device="cuda")
        assert out.tobytes() == numpy_gather(params, indices, axis, batch_dims).tobytes(), case
        params, indices, axis, given_axis = random_elements_case(rng, case)
        out = tb.gather_elements(params, indices, axis=given_axis, device="cuda")
        assert out.tobytes() == numpy_take_along_axis(params, indices, axis).tobytes(), case
        tensor, indices, updates, axis, given_axis, reduction = random_scatter_case(rng, case)
        expected = loop_scatter_elements(tensor, indices, updates, axis, reduction)
        out = tb.scatter_elements(tensor, indices, updates, axis=given_axis, reduction=reduction,
                                  deterministic=True, device="cuda")
        assert out.tobytes() == expected.tobytes(), (case, reduction)
    # CUDA's default policy is drop.
    params = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert tb.gather(params, [[1, 3]], axis=1, device="cuda").tolist() == [[[1, 0]], [[4, 0]]]
    with pytest.raises(tb.InvalidArgumentError):
        tb.gather(params, [[1, 3]], axis=1, device="cuda", out_of_bounds="error")


def test_result_types():
    torch = pytest.importorskip("torch")
    buffer = tb.asarray(np.arange(6, dtype=np.float32).reshape(3, 2))
    out = tb.gather(buffer, np.array([2, 0], np.int64))
    assert isinstance(out, tb.TensorBuffer) and out.numpy().tolist() == [[4, 5], [0, 1]]
    out = tb.gather_elements(buffer, [[1], [0], [1]], axis=1, out_type="numpy")
    assert isinstance(out, np.ndarray) and out.tolist() == [[1], [2], [5]]
    out = tb.scatter_elements(buffer, [[1, 0]], [[7.0, 8.0]], out_type="torch")
    assert isinstance(out, torch.Tensor) and out.tolist() == [[0, 8], [7, 3], [4, 5]]
    out = tb.scatter_elements(buffer, [[1, 0]], [[7.0, 8.0]])
    assert isinstance(out, tb.TensorBuffer) and out.numpy().tolist() == [[0, 8], [7, 3], [4, 5]]
    assert buffer.numpy().tolist() == [[0, 1], [2, 3], [4, 5]]
    tb.scatter_elements_in_place(buffer, [[2]], [[9.0]], axis=0)
    assert buffer.numpy().tolist() == [[0, 1], [2, 3], [9, 5]]
    # Lists: the updates take the tensor's dtype.
    assert tb.scatter_elements([1, 2, 3], [0], [7]).dtype == np.asarray([1, 2, 3]).dtype


def test_reduction_words_are_the_librarys():
    assert tb._tensorbuf._spellings["reduction"] == REDUCTIONS


def test_the_ops_are_in_the_package_namespace():
    for name in ("gather", "gather_elements", "scatter_elements", "scatter_elements_in_place"):
        assert name in tb.__all__


def test_the_docs_example_runs():
    doc = pathlib.Path(__file__).resolve().parents[2] / "docs" / "elements.md"
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(), re.S)
    assert len(blocks) == 1, "docs/elements.md has one Python example"
    exec(compile(blocks[0], "docs/elements.md", "exec"), {})  # its asserts are the check
