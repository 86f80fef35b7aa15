"""Randomized: every op through Python against NumPy itself (and Python slicing for substr)."""

import os

import numpy as np
import pytest

import tensorbuf as tb

CASES = int(os.environ.get("TENSORBUF_RANDOM_CASES", "50"))
DTYPES = [np.float32, np.float64, np.float16, np.int8, np.int16, np.int32, np.int64, np.uint8]


def numpy_scatter(op, tensor, indices, updates):
    out = tensor.copy()
    depth = indices.shape[-1]
    rows = indices.reshape(-1, depth)
    values = updates.reshape((rows.shape[0],) + tensor.shape[depth:])
    if op == "update":  # NumPy's fancy assignment does not promise the last duplicate wins
        for row, value in zip(rows, values):
            out[tuple(row)] = value
        return out
    ufunc = {"sub": np.subtract, "add": np.add, "min": np.minimum, "max": np.maximum}[op]
    ufunc.at(out, tuple(rows.T), values)
    return out


@pytest.mark.parametrize("op", ["sub", "add", "update", "min", "max"])
def test_scatter_against_numpy(op):
    rng = np.random.default_rng(hash(op) % 2**32)
    for case in range(CASES):
        dtype = DTYPES[case % len(DTYPES)]
        shape = tuple(rng.integers(1, 6, size=rng.integers(1, 4)))
        depth = int(rng.integers(1, len(shape) + 1))
        rows = int(rng.integers(0, 12))
        index_dtype = np.int32 if case % 2 else np.int64
        indices = np.stack([rng.integers(0, shape[d], size=rows) for d in range(depth)], axis=-1)
        indices = indices.astype(index_dtype).reshape(rows, depth)
        tensor = (rng.standard_normal(shape) * 20).astype(dtype)
        updates = (rng.standard_normal((rows,) + shape[depth:]) * 20).astype(dtype)
        expected = numpy_scatter(op, tensor, indices, updates)
        out = np.asarray(getattr(tb, f"tensor_scatter_nd_{op}")(tensor, indices, updates))
        assert out.tobytes() == expected.tobytes(), (case, dtype, shape, indices.tolist())
        getattr(tb, f"tensor_scatter_nd_{op}_in_place")(tensor, indices, updates)
        assert tensor.tobytes() == expected.tobytes(), case


def test_boolean_mask_update_against_numpy():
    rng = np.random.default_rng(11)
    for case in range(CASES * 4):
        dtype = DTYPES[case % len(DTYPES)]
        shape = tuple(int(d) for d in rng.integers(1, 5, size=rng.integers(1, 4)))
        axis = int(rng.integers(0, len(shape)))
        k = int(rng.integers(1, len(shape) - axis + 1))
        mask = rng.random(shape[axis:axis + k]) < 0.5
        n = int(mask.sum())
        rest = shape[axis + k:]
        form = case % 3
        update_shape = (n,) + rest if form == 0 else (1,) + rest if form == 1 else ()
        updates = (rng.standard_normal(update_shape) * 10).astype(dtype)
        tensor = (rng.standard_normal(shape) * 10).astype(dtype)
        expected = tensor.copy()
        try:  # NumPy's own assignment, with its broadcasting
            expected[(slice(None),) * axis + (mask,)] = updates
        except ValueError:
            with pytest.raises(tb.InvalidArgumentError):
                tb.boolean_mask_update(tensor, mask, updates, axis=axis)
            continue
        out = np.asarray(tb.boolean_mask_update(tensor, mask, updates, axis=axis))
        assert out.tobytes() == expected.tobytes(), (case, shape, axis, mask.tolist(), update_shape)


def python_substr(word, pos, length, unit):
    if unit == "utf8_char":
        return word.decode()[pos:pos + length].encode()
    return word[pos:pos + length]


@pytest.mark.parametrize("unit", ["byte", "utf8_char"])
def test_substr_against_python_slicing(unit):
    rng = np.random.default_rng(5)
    alphabet = ["a", "b", "é", "日", "😀"] if unit == "utf8_char" else ["a", "b", "c"]
    for case in range(CASES):
        count = int(rng.integers(0, 8))
        words = ["".join(rng.choice(alphabet, size=rng.integers(0, 9))) for _ in range(count)]
        encoded = [w.encode() for w in words]
        sizes = [len(w) if unit == "utf8_char" else len(e) for w, e in zip(words, encoded)]
        pos = np.array([int(rng.integers(0, s + 1)) for s in sizes], np.int64)
        length = rng.integers(0, 6, size=count).astype(np.int64)
        out = tb.substr(encoded, pos, length, unit=unit, out_of_bounds="error").to_list()
        assert out == [python_substr(e, int(p), int(n), unit)
                       for e, p, n in zip(encoded, pos, length)], case
