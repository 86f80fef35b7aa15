"""tb.TensorBuffer: the seed's methods and spec/tensor_buffer.md's vectors, from Python."""

import math

import numpy as np
import pytest

import tensorbuf as tb


def test_tb1_fixed_size():
    b = tb.TensorBuffer.create_fixed_size((2, 3), "float32")
    assert (b.flat_size, b.shape, b.type_size, b.is_dynamic, b.dtype) == (6, (2, 3), 4, False, "float32")
    assert b.get_float_array().tolist() == [0.0] * 6


def test_tb2_tb3_tb16_shapes():
    assert tb.TensorBuffer.create_fixed_size((), np.uint8).flat_size == 1
    assert tb.TensorBuffer.create_fixed_size((0,), np.dtype("uint8")).flat_size == 0
    assert tb.TensorBuffer.create_fixed_size([1, 0, 2], "float32").flat_size == 0
    with pytest.raises(tb.InvalidArgumentError):
        tb.TensorBuffer.create_fixed_size((1, -1, 2), "float32")
    with pytest.raises(tb.InvalidArgumentError, match="more elements than int64"):
        tb.TensorBuffer.create_fixed_size((65536,) * 4, "float32")


def test_tb4_tb5_uint8_clamps():
    b = tb.TensorBuffer.create_dynamic("uint8")
    b.load_array(np.array([400.32, -23.04, 254.9, 0.5, math.nan, math.inf, -math.inf, 128],
                          np.float32), (8,))
    assert b.get_int_array().tolist() == [255, 0, 254, 0, 0, 255, 0, 128]
    b.load_array([400, -23, 128, 255, 256], [5])
    assert b.get_int_array().tolist() == [255, 0, 128, 255, 255]


def test_tb6_tb7_float32():
    b = tb.TensorBuffer.create_dynamic(np.float32)
    b.load_array([500.1, -2.7, 2.5, math.nan], (4,))
    assert b.get_int_array().tolist() == [500, -2, 2, 0]
    assert b.get_int_value(1) == -2
    assert b.get_float_value(0) == np.float32(500.1)
    b.load_array(np.array([16777217, -3], np.int32), (2,))
    assert b.get_float_array().tolist() == [16777216.0, -3.0]


def test_tb8_tb9_tb10_shape_rules():
    b = tb.TensorBuffer.create_fixed_size((2, 3), "float32")
    b.load_array(np.arange(6, dtype=np.float32))
    with pytest.raises(tb.InvalidArgumentError):
        b.load_array(np.zeros(6, np.float32), (3, 2))
    assert b.get_float_array().tolist() == [0, 1, 2, 3, 4, 5]  # unchanged
    with pytest.raises(tb.InvalidArgumentError):
        b.load_array(np.zeros(2, np.float32))
    d = tb.TensorBuffer.create_dynamic("float32")
    d.load_array([1.0, 2.0, 3.0], (3,))
    d.load_array([1.0] * 5, (5,))
    d.load_array([2.0] * 5)
    with pytest.raises(tb.InvalidArgumentError):
        d.load_array([1.0] * 3)


def test_tb11_tb12_load_buffer():
    d = tb.TensorBuffer.create_dynamic("float32")
    with pytest.raises(tb.InvalidArgumentError, match="Expected: 4 Actual: 2"):
        d.load_buffer(b"\x00\x01", (1,))
    raw = bytearray(np.array([7, 8, 9], np.float32).tobytes())
    before = bytes(raw)
    d.load_buffer(raw, (3,))
    assert d.get_float_array().tolist() == [7, 8, 9]
    d.load_array([1.0, 2.0, 3.0])
    assert bytes(raw) == before and d.get_float_array().tolist() == [1, 2, 3]


def test_tb13_tb14_create_from():
    f = tb.TensorBuffer.create_fixed_size((2,), "float32")
    f.load_array([254.9, -3.5])
    u = tb.TensorBuffer.create_from(f, "uint8")
    assert (u.dtype, u.shape, u.is_dynamic, u.get_int_array().tolist()) == ("uint8", (2,), False, [254, 0])
    d = tb.TensorBuffer.create_dynamic("uint8")
    d.load_array([1, 2, 255], (3,))
    g = tb.TensorBuffer.create_from(d, "float32")
    assert g.is_dynamic and g.get_float_array().tolist() == [1, 2, 255]


def test_tb15_out_of_range():
    b = tb.TensorBuffer.create_fixed_size((6,), "float32")
    for index in (-1, 6):
        with pytest.raises(tb.OutOfRangeError):
            b.get_float_value(index)
    assert issubclass(tb.OutOfRangeError, IndexError)


def test_tb17_tb18_half_types_round_to_nearest_even():
    h = tb.TensorBuffer.create_fixed_size((5,), "float16")
    h.load_array(np.array([1 + 2**-11, 1 + 3 * 2**-11, 65519, 65520, -65520], np.float32))
    assert h.get_float_array().tolist() == [1, 1 + 2**-9, 65504, math.inf, -math.inf]
    assert h.numpy().dtype == np.float16
    bf = tb.TensorBuffer.create_fixed_size((2,), "bfloat16")
    bf.load_array(np.array([1 + 2**-8, 1 + 3 * 2**-8], np.float32))
    assert bf.get_float_array().tolist() == [1, 1 + 2**-6]
    with pytest.raises(TypeError, match="bfloat16"):
        bf.numpy()


def test_tb19_tb20_ints_and_bool():
    i8 = tb.TensorBuffer.create_fixed_size((3,), "int8")
    i8.load_array([200, -200, 5])
    assert i8.get_int_array().tolist() == [127, -128, 5]
    i64 = tb.asarray(np.array([2**40], np.int64))
    assert i64.get_int_value(0) == 2147483647
    bb = tb.TensorBuffer.create_fixed_size((4,), "bool")
    bb.load_array([0.0, -0.0, math.nan, 0.5])
    assert bb.get_int_array().tolist() == [0, 0, 1, 1]
    bb2 = tb.TensorBuffer.create_dynamic("bool")
    bb2.load_buffer(bytes([0, 2]), (2,))
    assert bb2.get_int_array().tolist() == [0, 1]


def test_load_array_int_values_outside_int32_are_an_error_not_a_wrap():
    b = tb.TensorBuffer.create_fixed_size((1,), "int64")
    with pytest.raises(tb.InvalidArgumentError, match="int32"):
        b.load_array(np.array([2**40], np.int64))
    assert b.get_int_array().tolist() == [0]


def test_dtype_spellings():
    for spelling in ("float32", np.float32, np.dtype("f4"), "f4", "float32"):
        assert tb.TensorBuffer.create_dynamic(spelling).dtype == "float32"
    assert tb.TensorBuffer.create_dynamic("bool").dtype == "bool"
    assert tb.TensorBuffer.create_dynamic(np.bool_).dtype == "bool"
    assert tb.TensorBuffer.create_dynamic("bfloat16").dtype == "bfloat16"
    import torch
    assert tb.TensorBuffer.create_dynamic(torch.bfloat16).dtype == "bfloat16"
    for bad in ("uint16", "complex64", "nonsense"):
        with pytest.raises(tb.InvalidArgumentError, match="dtype"):
            tb.TensorBuffer.create_dynamic(bad)


def test_numpy_view_is_zero_copy_and_pins_the_memory():
    b = tb.TensorBuffer.create_fixed_size((2, 2), "int32")
    view = b.numpy()
    view[0, 1] = 7  # the buffer's own host memory
    assert b.get_int_array().tolist() == [0, 7, 0, 0]
    assert np.asarray(b).ctypes.data == view.ctypes.data
    assert np.array(b, dtype=np.float64).dtype == np.float64
    d = tb.TensorBuffer.create_dynamic("float32")
    d.load_array([1.0, 2.0], (2,))
    pinned = d.numpy()
    with pytest.raises(tb.InvalidArgumentError):
        d.load_array([1.0, 2.0, 3.0], (3,))  # would move the memory under the view
    del pinned
    d.load_array([1.0, 2.0, 3.0], (3,))


def test_get_buffer_and_repr():
    b = tb.asarray(np.array([1, 2], np.int16))
    assert b.get_buffer() == np.array([1, 2], np.int16).tobytes()
    assert "shape=[2]" in repr(b) and "int16" in repr(b) and "borrowed" in repr(b)
