"""The spec's public examples (from the TensorFlow reference pages in the seeds) through Python,
and how errors reach Python: the I3 classes with the C++ message."""

import math

import numpy as np
import pytest
import torch

import tensorbuf as tb


def test_t1_t3_t4_t20_scatter():
    ones = np.ones(8, np.int32)
    assert np.asarray(tb.tensor_scatter_nd_sub(ones, [[4], [3], [1], [7]], np.array([9, 10, 11, 12], np.int32))).tolist() == [1, -10, 1, -9, -8, 1, 1, -11]
    assert np.asarray(tb.tensor_scatter_nd_sub(np.array([10, 20, 30], np.int32), [[1], [1], [0]], [1, 2, 3])).tolist() == [7, 17, 30]
    assert tb.tensor_scatter_nd_sub(torch.tensor([[1, 2], [3, 4]]), [[0, 1], [1, 0]], [10, 100]).numpy().tolist() == [[1, -8], [-97, 4]]
    base = np.array([5, 5, 5], np.float32)
    expected = {"add": [9, 5, 14], "update": [3, 5, 9], "min": [1, 5, 5], "max": [5, 5, 9]}
    for op, values in expected.items():
        out = getattr(tb, f"tensor_scatter_nd_{op}")(base, [[0], [2], [0]], [1, 9, 3])
        assert np.asarray(out).tolist() == values, op


def test_t2_slices():
    updates = np.array([[[5] * 4, [6] * 4, [7] * 4, [8] * 4]] * 2, np.int32)
    out = np.asarray(tb.tensor_scatter_nd_sub(np.ones((4, 4, 4), np.int32), [[0], [2]], updates))
    assert out[0].tolist() == out[2].tolist() == [[-4] * 4, [-5] * 4, [-6] * 4, [-7] * 4]
    assert (out[1] == 1).all() and (out[3] == 1).all()


def test_t6_t8_t17_t23_bounds_wrap_and_nan():
    with pytest.raises(tb.InvalidArgumentError) as raised:
        tb.tensor_scatter_nd_sub(np.zeros((5, 3), np.float32), [[0], [99], [4]], np.ones((3, 3), np.float32))
    assert str(raised.value) == "indices[1] = [99] does not index into shape [5,3]"
    dropped = tb.tensor_scatter_nd_sub(np.zeros(5, np.float32), [[0], [5], [2], [-1]], [1, 2, 3, 4], out_of_bounds="drop")
    assert np.asarray(dropped).tolist() == [-1, 0, -3, 0, 0]
    assert np.asarray(tb.tensor_scatter_nd_sub(np.zeros(1, np.uint8), [[0]], [1])).tolist() == [255]
    nan = np.asarray(tb.tensor_scatter_nd_min(np.array([1.0, math.nan], np.float32), [[0], [1]], [math.nan, 0.0]))
    assert math.isnan(nan[0]) and math.isnan(nan[1])


def test_s1_to_s10_substr():
    assert tb.substr([b"Hello", b"World"], 1, 3).to_list() == [b"ell", b"orl"]
    grid = [[b"ten", b"eleven", b"twelve"], [b"thirteen", b"fourteen", b"fifteen"],
            [b"sixteen", b"seventeen", b"eighteen"]]
    out = tb.substr(grid, [[1, 2, 3]] * 3, [[2, 3, 4], [4, 3, 2], [5, 5, 5]])
    assert out.to_list() == [[b"en", b"eve", b"lve"], [b"hirt", b"urt", b"te"], [b"ixtee", b"vente", b"hteen"]]
    assert tb.substr(b"thirteen", [1, 5, 7], [3, 2, 1]).to_list() == [b"hir", b"ee", b"n"]
    assert tb.substr(b"Hello", 5, 3).to_list() == b""
    with pytest.raises(tb.InvalidArgumentError) as raised:
        tb.substr(b"Hello", 6, 1)
    assert str(raised.value) == "pos 6 out of range for string b'Hello' at index 0"
    assert tb.substr(b"Hello", -2, -1).to_list() == b"lo"
    assert tb.substr(b"H\xc3\xa9llo", 1, 2, unit="utf8_char").to_list() == b"\xc3\xa9l"
    assert tb.substr(b"H\xc3\xa9llo", 1, 2).to_list() == b"\xc3\xa9"


def test_b1_b2_b3_b7_b8_b13_b15_mask_update():
    grid = np.array([[0, 0, 0], [1, 1, 1], [2, 2, 2]], np.float32)
    for updates in ([[-1, -1, -1]], [-1, -1, -1], -1):
        assert np.asarray(tb.boolean_mask_update(grid, [True, False, False], updates)).tolist() == [[-1, -1, -1], [1, 1, 1], [2, 2, 2]]
    row = np.arange(10, dtype=np.int32).reshape(1, 1, 10)
    mask = [True, True, False, False, True, True, True, False, False, False]
    assert np.asarray(tb.boolean_mask_update(row, mask, -1, axis=2)).tolist() == [[[-1, -1, 2, 3, -1, -1, -1, 7, 8, 9]]]
    assert np.asarray(tb.boolean_mask_update(np.array([1, 2, 3, 4]), [False, True, False, True], [-1, 2])).tolist() == [1, -1, 3, 2]
    six = np.array([[1, 2, 3], [4, 5, 6]], np.int64)
    assert np.asarray(tb.boolean_mask_update(six, [True, False, True], 0, axis=-1)).tolist() == [[0, 2, 0], [0, 5, 0]]
    assert np.asarray(tb.boolean_mask_update(six, [True, False, True], [[7, 8], [9, 10]], axis=1)).tolist() == [[7, 2, 8], [9, 5, 10]]
    out = tb.boolean_mask_update(np.zeros((2, 2, 3)), [[True, False], [False, True]], [[1, 2, 3], [4, 5, 6]], broadcast=False)
    assert np.asarray(out).tolist() == [[[1, 2, 3], [0, 0, 0]], [[0, 0, 0], [4, 5, 6]]]
    out = tb.boolean_mask_update(np.zeros((2, 3, 2)), [False, True, True], [[1, 2], [3, 4]], axis=1)
    assert np.asarray(out).tolist() == [[[0, 0], [1, 2], [3, 4]], [[0, 0], [1, 2], [3, 4]]]
    with pytest.raises(tb.InvalidArgumentError):
        tb.boolean_mask_update(np.zeros((2, 3, 2)), [False, True, True], [[1, 2], [3, 4]], axis=1, broadcast=False)


def test_error_classes_are_the_python_ones():
    assert issubclass(tb.InvalidArgumentError, ValueError) and issubclass(tb.InvalidArgumentError, tb.Error)
    assert issubclass(tb.OutOfRangeError, IndexError)
    assert issubclass(tb.UnavailableError, RuntimeError)
    assert issubclass(tb.ResourceExhaustedError, MemoryError)
    with pytest.raises(tb.InvalidArgumentError) as raised:
        tb.tensor_scatter_nd_add(np.zeros(2, np.float32), np.array([[0.5]]), [1.0])
    assert str(raised.value) == "tensor_scatter_nd_add: indices must be int32 or int64, got float64"
    with pytest.raises(tb.ResourceExhaustedError):
        tb.TensorBuffer.create_fixed_size((1 << 50,), "float64").get_float_value(0)
    with pytest.raises(ValueError, match="device"):
        tb.tensor_scatter_nd_add([1.0], [[0]], [1.0], device="gpu")
    with pytest.raises(ValueError, match="out_of_bounds"):
        tb.tensor_scatter_nd_add([1.0], [[0]], [1.0], out_of_bounds="ignore")
    with pytest.raises(TypeError):
        tb.tensor_scatter_nd_add({"a": 1}, [[0]], [1.0])
    with pytest.raises(tb.InvalidArgumentError, match="big-endian"):
        tb.asarray(np.zeros(2, ">f4"))
    with pytest.raises(tb.InvalidArgumentError, match="format"):
        tb.asarray(np.zeros(2, np.uint16))


@pytest.mark.skipif(tb.cuda_available(), reason="checks the no-CUDA error; a GPU is present")
def test_cuda_without_a_gpu_is_unavailable():
    with pytest.raises(tb.UnavailableError):
        tb.tensor_scatter_nd_add(np.zeros(2, np.float32), [[0]], [1.0], device="cuda")
