"""tb.Processor (docs/processing.md, "Processor"): chains against NumPy float32 arithmetic
written here (never the library's), run_into, the steps' properties and the errors."""

import numpy as np
import pytest

import tensorbuf as tb

MEAN = [123.675, 116.28, 103.53]
STD = [58.395, 57.12, 57.375]


def image(seed, shape=(6, 7, 3)):
    return np.random.default_rng(seed).integers(0, 256, size=shape, dtype=np.uint8)


def to_uint8(y):
    """tensor_buffer.md's float -> uint8: NaN -> 0, saturate, truncate toward zero."""
    return np.clip(np.nan_to_num(y, nan=0.0, posinf=255.0, neginf=0.0), 0, 255).astype(np.uint8)


def test_uint8_image_to_float32_and_float16():
    x = image(1)
    expected = (x.astype(np.float32) - np.float32(MEAN)) / np.float32(STD)
    out = tb.Processor([tb.normalize_op(MEAN, STD)]).run(x)
    assert out.dtype == np.float32 and out.tobytes() == expected.tobytes()
    half = tb.Processor([tb.normalize_op(MEAN, STD), tb.cast_op("float16")]).run(x)
    assert half.dtype == np.float16 and half.tobytes() == expected.astype(np.float16).tobytes()


def test_quantize_then_cast_to_uint8():
    x = np.random.default_rng(2).normal(0.0, 3.0, size=(50,)).astype(np.float32)
    x[:3] = [np.nan, np.inf, -np.inf]
    zero_point, scale = 128.0, 0.0625
    # QuantizeOp: normalize(x, -zero_point * scale, scale), the product rounded to float32.
    mean = np.float32(-np.float32(zero_point) * np.float32(scale))
    q = (x - mean) / np.float32(scale)
    out = tb.Processor([tb.quantize_op(zero_point, scale), tb.cast_op("uint8")]).run(x)
    assert out.dtype == np.uint8 and out.tobytes() == to_uint8(q).tobytes()


def test_int8_output_dequantized():
    x = np.random.default_rng(3).integers(-128, 128, size=(4, 9), dtype=np.int8)
    zero_point, scale = -5.0, 0.1
    # DequantizeOp: normalize(x, zero_point, 1 / scale), the quotient rounded to float32.
    stddev = np.float32(1.0) / np.float32(scale)
    expected = (x.astype(np.float32) - np.float32(zero_point)) / stddev
    p = tb.Processor([tb.dequantize_op(zero_point, scale)])
    assert p.output_type("int8") == "float32"
    out = p.run(x)
    assert out.dtype == np.float32 and out.tobytes() == expected.tobytes()


def test_chain_equals_the_single_ops_one_by_one():
    x = image(4, (5, 3))
    steps = [tb.normalize_op(MEAN, STD), tb.cast_op("float16"), tb.dequantize_op(1.0, 0.5),
             tb.cast_op("int8")]
    one_by_one = tb.cast(tb.dequantize(tb.cast(tb.normalize(x, MEAN, STD), "float16"), 1.0, 0.5),
                         "int8")
    assert tb.Processor(steps).run(x).tobytes() == np.asarray(one_by_one).tobytes()


def test_run_into_numpy_out_and_in_place():
    x = image(5)
    p = tb.Processor([tb.normalize_op(MEAN, STD)])
    out = np.zeros(x.shape, dtype=np.float32)
    p.run_into(x, out)
    assert out.tobytes() == ((x.astype(np.float32) - np.float32(MEAN)) / np.float32(STD)).tobytes()
    y = x.astype(np.float32)
    expected = (y - np.float32(2.0)) / np.float32(4.0)
    tb.Processor([tb.normalize_op(2.0, 4.0)]).run_into(y, y)  # out may be x
    assert y.tobytes() == expected.tobytes()


def test_steps_properties():
    steps = [tb.normalize_op([1.0, 2.0], [3.0, 4.0]), tb.quantize_op(2.0, 0.5),
             tb.dequantize_op(3.0, 4.0), tb.cast_op("bfloat16"), tb.normalize_op(0.0, 0.0)]
    p = tb.Processor(steps)
    assert [s.name for s in p.steps] == ["normalize", "quantize", "dequantize", "cast", "normalize"]
    assert p.steps[0].means == [1.0, 2.0] and p.steps[0].stddevs == [3.0, 4.0]
    assert p.steps[1].means == [-1.0] and p.steps[1].stddevs == [0.5]
    assert p.steps[2].stddevs == [0.25]
    assert p.steps[3].dtype == "bfloat16" and p.steps[3].means == []
    assert p.steps[4].is_identity and not p.steps[0].is_identity
    assert p.output_type("uint8") == "bfloat16"


def test_errors():
    with pytest.raises(tb.InvalidArgumentError, match="stddev cannot be zero"):
        tb.normalize_op([0.0], [0.0])
    with pytest.raises(TypeError):
        tb.normalize_op([1.0], 2.0)
    with pytest.raises(tb.InvalidArgumentError, match="no last axis fits both"):
        tb.Processor([tb.normalize_op([1.0, 2.0], [1.0, 1.0]),
                      tb.normalize_op([1.0, 2.0, 3.0], [1.0, 1.0, 1.0])])
    p = tb.Processor([tb.normalize_op(MEAN, STD)])
    with pytest.raises(tb.InvalidArgumentError, match=r"Processor step 0 \(normalize\): 3 means"):
        p.run(np.zeros((2, 4), dtype=np.uint8))
    out = np.full((2, 3), 7, dtype=np.float64)
    with pytest.raises(tb.InvalidArgumentError, match="out has dtype float64"):
        p.run_into(np.zeros((2, 3), dtype=np.uint8), out)
    assert (out == 7).all()
