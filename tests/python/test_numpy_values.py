"""NumPy scalars and arrays of another dtype as updates: a NumPy scalar is
a 0-d array of its dtype; where an op converts Python values (a scatter's or mask update's
`updates`), it converts NumPy values of another dtype the same way, with the library's
(saturating) conversion rules. Elsewhere dtypes are kept."""

import math

import numpy as np
import pytest
import torch

import tensorbuf as tb


@pytest.mark.parametrize("value", [1.0, np.float64(1.0), np.int64(1), np.float16(1.0), np.bool_(True),
                                   np.array(1.0), np.array(1, np.int8)])
def test_numpy_scalars_are_converted_like_python_numbers(value):
    a = np.zeros(3, np.float32)
    tb.boolean_mask_update_in_place(a, [True, False, True], value)
    assert a.tolist() == [1, 0, 1]
    b = np.zeros((2, 2), np.int32)
    tb.tensor_scatter_nd_update_in_place(b, [[1, 0]], np.array([value]).reshape(1))
    assert b.tolist() == [[0, 0], [1, 0]]


def test_arrays_of_another_dtype_are_converted_as_updates():
    a = np.zeros(4, np.float32)
    tb.tensor_scatter_nd_add_in_place(a, [[0], [2]], np.array([1.5, 2.25]))  # float64
    assert a.tolist() == [1.5, 0, 2.25, 0]
    out = tb.tensor_scatter_nd_sub(a, np.array([[1]], np.int32), np.array([3], np.int64))
    assert np.asarray(out).tolist() == [1.5, -3, 2.25, 0] and out.dtype == "float32"
    m = tb.boolean_mask_update(np.zeros((2, 2), np.float64), [True, False],
                               np.array([7, 8], np.uint8))
    assert np.asarray(m).tolist() == [[7, 8], [0, 0]]


def test_conversions_saturate_like_python_values():
    for updates in ([1e6, -1e6, math.nan, 2.7], np.array([1e6, -1e6, math.nan, 2.7]),
                    np.array([1e6, -1e6, math.nan, 2.7], np.float32)):
        a = np.zeros(4, np.int16)
        tb.tensor_scatter_nd_update_in_place(a, [[0], [1], [2], [3]], updates)
        assert a.tolist() == [32767, -32768, 0, 2]
    u = np.zeros(2, np.uint8)
    tb.boolean_mask_update_in_place(u, [True, True], np.array([300, -5], np.int64))
    assert u.tolist() == [255, 0]


def test_strided_updates_of_another_dtype_are_converted():
    updates = np.arange(8, dtype=np.float64)[::-2]  # [7, 5, 3, 1], negative stride
    a = np.zeros(4, np.float32)
    tb.tensor_scatter_nd_update_in_place(a, [[0], [1], [2], [3]], updates)
    assert a.tolist() == [7, 5, 3, 1]


def test_elsewhere_dtypes_are_kept():
    a = np.zeros(3, np.float32)
    with pytest.raises(tb.InvalidArgumentError):  # torch refuses mixed dtypes in index_put_ too
        tb.tensor_scatter_nd_add_in_place(a, [[0]], torch.tensor([1.0], dtype=torch.float64))
    other = tb.asarray(np.ones(1, np.float64))
    with pytest.raises(tb.InvalidArgumentError):
        tb.tensor_scatter_nd_add_in_place(a, [[0]], other)
    with pytest.raises(tb.InvalidArgumentError):  # indices are never converted from floats
        tb.tensor_scatter_nd_add_in_place(a, np.array([[0.0]]), [1.0])
    assert a.tolist() == [0, 0, 0]
    # The tensor keeps its dtype: an out-of-place op on float64 values returns float64.
    assert tb.tensor_scatter_nd_add(np.zeros(2), [[0]], np.ones(1, np.float32)).dtype == "float64"


def test_substr_lengths_take_the_positions_dtype_also_from_numpy():
    words = ["hello", "world"]
    pos, lengths = np.array([0, 1], np.int32), np.array([2, 3], np.int64)
    assert tb.substr(words, pos, lengths).to_list() == [b"he", b"orl"]
    assert tb.substr("hello", np.int64(1), np.int32(2)).to_list() == b"el"
