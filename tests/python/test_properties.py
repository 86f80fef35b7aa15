"""Hypothesis property tests of the Python package: generated shapes, dtypes, index depths,
strides and bad arguments, checked against references written with NumPy alone
(np.add.at / np.subtract.at / np.minimum.at / np.maximum.at, assignment, t[mask] = u) and
against "nothing written on error".

Bounded for CI: a fixed example count and derandomized examples (the same ones every run).
TENSORBUF_HYPOTHESIS_EXAMPLES=N explores N fresh random examples per test instead."""

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import torch

import tensorbuf as tb

_EXPLORE = os.environ.get("TENSORBUF_HYPOTHESIS_EXAMPLES")
PROPERTY = settings(max_examples=int(_EXPLORE) if _EXPLORE else 50, deadline=None,
                    database=None, derandomize=not _EXPLORE,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

NUMERIC = [np.int8, np.uint8, np.int16, np.int32, np.int64, np.float16, np.float32, np.float64]
INDEX_DTYPES = [np.int32, np.int64]
# np.<ufunc>.at applies every row in order, unbuffered: TensorFlow's combine-every-duplicate
# semantics with the CPU's in-order float rounding and two's-complement integer wrap.
COMBINING = {"add": np.add.at, "sub": np.subtract.at, "min": np.minimum.at, "max": np.maximum.at}


def scatter_op(name, in_place):
    return getattr(tb, f"tensor_scatter_nd_{name}" + ("_in_place" if in_place else ""))


def same_bytes(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def same_values(a, b):
    """Equal elementwise, NaN equal to NaN (and -0.0 to 0.0: NumPy's min/max of zeros of both
    signs is not specified)."""
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(
        a, b, equal_nan=a.dtype.kind == "f")


def values(dtype, shape):
    """Arrays of any values of the dtype: NaN, infinities, extremes, subnormals."""
    return hnp.arrays(dtype, shape)


@st.composite
def scatter_cases(draw, unique_rows=False):
    """(tensor, indices, updates) of a valid scatter: rank 1-3, index depth 1..rank."""
    dtype = np.dtype(draw(st.sampled_from(NUMERIC)))
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    depth = draw(st.integers(1, len(shape)))
    row = st.tuples(*(st.integers(0, shape[d] - 1) for d in range(depth)))
    rows = draw(st.lists(row, max_size=7, unique=unique_rows))
    indices = np.array(rows, dtype=draw(st.sampled_from(INDEX_DTYPES))).reshape(len(rows), depth)
    tensor = draw(values(dtype, shape))
    updates = draw(values(dtype, (len(rows),) + shape[depth:]))
    return tensor, indices, updates


def reference_scatter(name, tensor, indices, updates):
    expected = tensor.copy()
    where = tuple(indices.astype(np.intp).T)
    if name == "update":
        expected[where] = updates  # unique rows only: TF leaves duplicate updates unordered
    else:
        with np.errstate(all="ignore"):  # inf - inf, integer wrap: as the library computes
            COMBINING[name](expected, where, updates)
    return expected


def passed_as(via, array):
    """The same memory as a NumPy array, a torch tensor or a tb.TensorBuffer (no copy)."""
    if via == "torch":
        return torch.from_numpy(array)
    return tb.asarray(array) if via == "tensorbuffer" else array


@PROPERTY
@given(case=scatter_cases(), name=st.sampled_from(sorted(COMBINING)), in_place=st.booleans(),
       via=st.sampled_from(["numpy", "torch", "tensorbuffer"]))
def test_scatter_matches_numpy(case, name, in_place, via):
    tensor, indices, updates = case
    expected = reference_scatter(name, tensor, indices, updates)
    args = [passed_as(via, a) for a in (tensor, indices, updates)]
    with np.errstate(all="ignore"):
        if in_place:
            scatter_op(name, True)(*args)
            got = tensor  # written through the torch tensor / buffer over its memory
        else:
            before = tensor.copy()
            got = np.asarray(scatter_op(name, False)(*args))
            assert same_bytes(tensor, before)  # the input is never written
    assert same_values(got, expected)


@PROPERTY
@given(case=scatter_cases(unique_rows=True), in_place=st.booleans(),
       as_float64=st.booleans())
def test_scatter_update_of_unique_rows_matches_assignment(case, in_place, as_float64):
    tensor, indices, updates = case
    if as_float64:
        # Another dtype is converted; small integers convert exactly.
        updates = (np.arange(updates.size) % 100).reshape(updates.shape).astype(np.float64)
    expected = reference_scatter("update", tensor, indices, updates.astype(tensor.dtype))
    if in_place:
        tb.tensor_scatter_nd_update_in_place(tensor, indices, updates)
        got = tensor
    else:
        got = np.asarray(tb.tensor_scatter_nd_update(tensor, indices, updates))
    assert same_bytes(got, expected)


@st.composite
def mask_cases(draw):
    """(tensor, mask, updates, axis, broadcast) of a valid mask update, in one of the updates
    forms NumPy's out[(slice(None),) * axis + (mask,)] = updates broadcasts."""
    dtype = np.dtype(draw(st.sampled_from(NUMERIC)))
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    axis = draw(st.integers(0, len(shape) - 1))
    mask_rank = draw(st.integers(1, len(shape) - axis))
    mask = draw(hnp.arrays(np.bool_, shape[axis:axis + mask_rank]))
    n = int(mask.sum())
    trailing = shape[axis + mask_rank:]
    target = shape[:axis] + (n,) + trailing
    form = draw(st.sampled_from(["target", "rows", "row", "scalar"]))
    updates_shape = {"target": target, "rows": (n,) + trailing, "row": trailing,
                     "scalar": ()}[form]
    updates = draw(values(dtype, updates_shape))
    broadcast = form != "target" or draw(st.booleans())
    return draw(values(dtype, shape)), mask, updates, axis, broadcast


def reference_mask_update(tensor, mask, updates, axis):
    expected = tensor.copy()
    expected[(slice(None),) * axis + (mask,)] = updates
    return expected


@PROPERTY
@given(case=mask_cases(), in_place=st.booleans())
def test_mask_update_matches_numpy(case, in_place):
    tensor, mask, updates, axis, broadcast = case
    expected = reference_mask_update(tensor, mask, updates, axis)
    if in_place:
        tb.boolean_mask_update_in_place(tensor, mask, updates, axis=axis, broadcast=broadcast)
        got = tensor
    else:
        got = np.asarray(tb.boolean_mask_update(tensor, mask, updates, axis=axis,
                                                broadcast=broadcast))
    assert same_bytes(got, expected)


# ---- Strided arrays: exactly their own elements, or an error; never memory around them ----

@st.composite
def strided_views(draw):
    """(padded, slices): padded[INTERIOR][slices] is a view with any steps (negative too), so
    that it may or may not be C-contiguous, inside a base with a guard element on every side."""
    dtype = np.dtype(draw(st.sampled_from(NUMERIC)))
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=6))
    padded = draw(values(dtype, tuple(side + 2 for side in shape)))
    slices = tuple(draw(st.slices(side)) for side in shape)
    assume(interior(padded)[slices].size > 0)
    return padded, slices


def interior(padded):
    return padded[(slice(1, -1),) * padded.ndim]


@PROPERTY
@given(view_case=strided_views(), data=st.data(),
       name=st.sampled_from(["add", "sub", "min", "max", "update", "mask"]),
       via_torch=st.booleans())
def test_in_place_on_a_strided_view_writes_exactly_its_elements_or_raises(view_case, data, name,
                                                                          via_torch):
    base, slices = view_case
    view = interior(base)[slices]
    target = view
    if via_torch:
        assume(all(stride >= 0 for stride in view.strides))  # torch has no negative strides
        target = torch.from_numpy(view)
    before = base.copy()
    expected_base = base.copy()
    expected_view = interior(expected_base)[slices]  # the reference writes through it too
    if name == "mask":
        mask = data.draw(hnp.arrays(np.bool_, view.shape[:1]))
        updates = data.draw(values(view.dtype, ()))
        expected_view[mask] = updates
        call = lambda: tb.boolean_mask_update_in_place(target, mask, updates)  # noqa: E731
    else:
        rows = data.draw(st.lists(st.integers(0, view.shape[0] - 1), max_size=5,
                                  unique=name == "update"))
        indices = np.array(rows, np.int64).reshape(len(rows), 1)
        updates = data.draw(values(view.dtype, (len(rows),) + view.shape[1:]))
        with np.errstate(all="ignore"):
            if name == "update":
                expected_view[tuple(indices.T)] = updates
            else:
                COMBINING[name](expected_view, tuple(indices.T), updates)
        call = lambda: scatter_op(name, True)(target, indices, updates)  # noqa: E731
    if view.flags.c_contiguous:
        with np.errstate(all="ignore"):
            call()
        assert same_values(base, expected_base)
    else:
        with pytest.raises(tb.InvalidArgumentError, match="C-contiguous"):
            call()
        assert same_bytes(base, before)


@PROPERTY
@given(view_case=strided_views(), data=st.data())
def test_strided_read_arguments_are_read_through_their_strides(view_case, data):
    base, slices = view_case
    before = base.copy()
    updates = interior(base)[slices]  # any strides: read (copied) element by element
    assume(updates.ndim >= 1)
    table = data.draw(values(updates.dtype, (4,) + updates.shape[1:]))
    rows = data.draw(st.lists(st.integers(0, 3), min_size=updates.shape[0],
                              max_size=updates.shape[0]))
    # The rows as a view with a negative stride of two elements.
    indices = np.repeat(np.array(rows[::-1], np.int64), 2)[::-2].reshape(-1, 1)
    assert indices[:, 0].tolist() == rows
    assert len(rows) < 2 or not indices.flags.c_contiguous
    expected = table.copy()
    with np.errstate(all="ignore"):
        np.add.at(expected, tuple(indices.T), updates)
        got = np.asarray(tb.tensor_scatter_nd_add(table, indices, updates))
    assert same_values(got, expected)
    assert same_bytes(base, before)


# ---- Bad arguments: a typed error, and nothing written ----

@st.composite
def out_of_range_cases(draw):
    tensor, indices, updates = draw(scatter_cases())
    assume(len(indices) > 0)
    row = draw(st.integers(0, len(indices) - 1))
    dim = draw(st.integers(0, indices.shape[1] - 1))
    side = tensor.shape[dim]
    indices = indices.copy()
    indices[row, dim] = draw(st.sampled_from([-1, -side, side, side + 3]))
    return tensor, indices, updates


@PROPERTY
@given(case=out_of_range_cases(), name=st.sampled_from(sorted(COMBINING) + ["update"]))
def test_out_of_range_indices_raise_and_write_nothing_under_the_cpu_policy(case, name):
    tensor, indices, updates = case
    before = tensor.copy()
    for policy in ("default", "error"):
        with pytest.raises(tb.InvalidArgumentError, match="does not index into shape"):
            scatter_op(name, True)(tensor, indices, updates, out_of_bounds=policy)
        assert same_bytes(tensor, before)
    with pytest.raises(tb.InvalidArgumentError, match="does not index into shape"):
        scatter_op(name, False)(tensor, indices, updates)


@PROPERTY
@given(case=out_of_range_cases(), name=st.sampled_from(sorted(COMBINING)))
def test_drop_skips_exactly_the_bad_rows(case, name):
    tensor, indices, updates = case
    good = np.all((indices >= 0) & (indices < np.array(tensor.shape[:indices.shape[1]])), axis=1)
    with np.errstate(all="ignore"):
        expected = reference_scatter(name, tensor, indices[good], updates[good])
        scatter_op(name, True)(tensor, indices, updates, out_of_bounds="drop")
    assert same_values(tensor, expected)


def bad_scatter_arguments(tensor, indices, updates):
    """(label, indices, updates, error class) of arguments every scatter must refuse."""
    other = np.float32 if tensor.dtype != np.float32 else np.float64
    depth = indices.shape[1]
    yield "float indices", indices.astype(np.float64), updates, tb.InvalidArgumentError
    yield "updates one row short", indices, updates[:-1], tb.InvalidArgumentError
    yield "updates one row long", indices, np.concatenate([updates, updates[:1]]), tb.InvalidArgumentError
    yield "index depth beyond rank", np.zeros((len(indices), tensor.ndim + 1), np.int64), \
        updates, tb.InvalidArgumentError
    yield "depth 0", np.zeros((len(indices), 0), np.int64), updates, tb.InvalidArgumentError
    if depth < tensor.ndim:
        yield "updates missing a trailing dim", indices, updates.reshape(len(indices), -1)[:, :0], \
            tb.InvalidArgumentError
    # Dtypes are kept for tb.TensorBuffer (and torch / DLPack) updates.
    yield "TensorBuffer updates of another dtype", indices, \
        tb.asarray(np.zeros(updates.shape, other)), tb.InvalidArgumentError
    yield "complex updates", indices, np.zeros(updates.shape, np.complex64), \
        tb.InvalidArgumentError
    yield "a string", indices, "1.0", TypeError


@PROPERTY
@given(case=scatter_cases(), name=st.sampled_from(sorted(COMBINING) + ["update"]))
def test_bad_scatter_arguments_raise_and_write_nothing(case, name):
    tensor, indices, updates = case
    assume(len(indices) > 0)
    before = tensor.copy()
    for label, bad_indices, bad_updates, error in bad_scatter_arguments(tensor, indices, updates):
        with pytest.raises(error):
            scatter_op(name, True)(tensor, bad_indices, bad_updates)
        assert same_bytes(tensor, before), label
    frozen = tensor.copy()
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        scatter_op(name, True)(frozen, indices, updates)
    assert same_bytes(frozen, before)
    complex_tensor = tensor.astype(np.complex128)
    with pytest.raises(tb.InvalidArgumentError, match="unsupported element format"):
        scatter_op(name, True)(complex_tensor, indices, updates)


@PROPERTY
@given(case=mask_cases())
def test_bad_mask_arguments_raise_and_write_nothing(case):
    tensor, mask, updates, axis, broadcast = case
    before = tensor.copy()
    other = np.float32 if tensor.dtype != np.float32 else np.int8
    bad = [
        (mask.astype(np.int32), updates, {"axis": axis}),  # not a bool mask
        (np.ones(mask.shape[:-1] + (mask.shape[-1] + 1,), bool), updates, {"axis": axis}),
        (mask, updates, {"axis": tensor.ndim}),  # axis out of range
        (mask, np.zeros((7, 5, 3), tensor.dtype), {"axis": axis}),  # not broadcastable
        (mask, tb.asarray(np.zeros(updates.shape, other)), {"axis": axis}),  # kept dtype
    ]
    for bad_mask, bad_updates, options in bad:
        with pytest.raises(tb.InvalidArgumentError):
            tb.boolean_mask_update_in_place(tensor, bad_mask, bad_updates, **options)
        assert same_bytes(tensor, before)
