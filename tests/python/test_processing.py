"""normalize, quantize, dequantize, cast, quantize_linear and dequantize_linear through Python,
against NumPy float32 arithmetic written here (never the library's)."""

import numpy as np
import pytest

import tensorbuf as tb


def test_normalize_per_channel_is_numpy_float32_arithmetic():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 256, size=(4, 5, 3), dtype=np.uint8)
    mean, std = [123.675, 116.28, 103.53], [58.395, 57.12, 57.375]
    expected = (x.astype(np.float32) - np.float32(mean)) / np.float32(std)
    out = tb.normalize(x, mean, std)
    assert out.dtype == np.float32 and out.tobytes() == expected.tobytes()


def test_normalize_scalar_and_identity():
    x = np.array([0, 127, 255], dtype=np.uint8)
    assert tb.normalize(x, 127.5, 127.5).tobytes() == (
        (x.astype(np.float32) - np.float32(127.5)) / np.float32(127.5)).tobytes()
    same = tb.normalize(x, 0.0, 1.0)  # TFLite Support's identity: x's dtype and values
    assert same.dtype == np.uint8 and same.tolist() == [0, 127, 255]


def test_normalize_errors():
    x = np.zeros((2, 3), dtype=np.float32)
    with pytest.raises(tb.InvalidArgumentError):
        tb.normalize(x, 1.0, 0.0)  # a zero stddev
    with pytest.raises(tb.InvalidArgumentError):
        tb.normalize(x, [1.0, 2.0], [1.0, 1.0])  # 2 channels, last axis 3
    with pytest.raises(TypeError):
        tb.normalize(x, 1.0, [1.0, 1.0, 1.0])  # a number and a sequence


def test_quantize_and_dequantize_are_tflite_supports():
    x = np.array([-1.0, 0.0, 0.5, 2.0], dtype=np.float32)
    zero_point, scale = 3.0, 0.25
    # QuantizeOp = normalize(x, -zero_point * scale, scale); DequantizeOp = normalize(x,
    # zero_point, 1 / scale): each product / quotient rounded to float32 first.
    q_mean = np.float32(-zero_point * np.float32(scale))
    expected_q = (x - q_mean) / np.float32(scale)
    assert tb.quantize(x, zero_point, scale).tobytes() == expected_q.tobytes()
    expected_dq = (x - np.float32(zero_point)) / np.float32(np.float32(1) / np.float32(scale))
    assert tb.dequantize(x, zero_point, scale).tobytes() == expected_dq.tobytes()


@pytest.mark.parametrize("dtype", ["uint8", np.int16, "float16", np.dtype("float64")])
def test_cast_takes_every_dtype_spelling(dtype):
    x = np.array([1.7, -2.5, 300.0], dtype=np.float32)
    out = tb.cast(x, dtype)
    assert out.dtype == np.dtype(dtype)
    if np.dtype(dtype) == np.uint8:
        assert out.tolist() == [1, 0, 255]  # truncation toward zero, saturation


def test_quantize_linear_per_axis_and_back():
    x = np.array([[-1.0, 0.5], [2.5, 1000.0]], dtype=np.float32)
    scale = np.array([0.5, 2.0], dtype=np.float32)
    zero_point = np.array([10, 20], dtype=np.uint8)
    q = tb.quantize_linear(x, scale, zero_point, axis=1)
    # round half to even of x / scale, plus the zero point, saturated to uint8
    assert q.dtype == np.uint8 and q.tolist() == [[8, 20], [15, 255]]
    dq = tb.dequantize_linear(q, scale, zero_point, axis=1)
    expected = (q.astype(np.float32) - zero_point.astype(np.float32)) * scale
    assert dq.tobytes() == expected.tobytes()


def test_quantize_linear_python_numbers_give_uint8():
    assert tb.quantize_linear([0.4, 0.6, -3.0], 1.0, 0).tolist() == [0, 1, 0]


def test_quantize_linear_errors():
    with pytest.raises(tb.InvalidArgumentError):
        tb.quantize_linear(np.ones(3, np.float32), 0.0, np.uint8(0))  # scale not positive
    with pytest.raises(tb.InvalidArgumentError):
        tb.quantize_linear(np.ones((2, 3), np.float32), np.ones(2, np.float32),
                           np.zeros(3, np.uint8), axis=1)  # lengths differ
