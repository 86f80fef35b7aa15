#!/usr/bin/python3
"""Generates vectors.txt: scatter_nd cases whose expected outputs come from NumPy.

sub/add/min/max/mul use the unbuffered ufunc.at (np.subtract.at, np.add.at, np.minimum.at,
np.maximum.at, np.multiply.at), which applies duplicates in row order, in the array's own dtype
(float16 rounds after every step, integers wrap); update uses plain assignment with unique
indices. The mul cases come last, from their own generator, so the earlier cases stay as they
were.

Run with /usr/bin/python3 (Debian's python3-numpy, 1.24) from this folder:
    /usr/bin/python3 generate.py > vectors.txt

Format, one block per case (values whitespace-separated, row-major; floats as the shortest
decimal of the exact value, so parsing as double and rounding to the dtype is exact; nan):
    case <name>
    op <sub|add|update|min|max|mul>
    dtype <float32|float64|float16|int8|int16|int32|int64|uint8|bool>
    index_dtype <int32|int64>
    tensor_shape <dims...>
    tensor <values...>
    indices_shape <dims...>
    indices <values...>
    updates_shape <dims...>
    updates <values...>
    expected <values...>
    end
"""
import numpy as np

DTYPES = ["float32", "float64", "float16", "int8", "int16", "int32", "int64", "uint8"]
OPS = {"sub": np.subtract, "add": np.add, "min": np.minimum, "max": np.maximum,
       "mul": np.multiply}


def text(values, dtype):
    flat = np.asarray(values).reshape(-1)
    if dtype in ("float32", "float64", "float16"):
        return " ".join("nan" if np.isnan(v) else repr(float(v)) for v in flat)
    if dtype == "bool":
        return " ".join("1" if v else "0" for v in flat)
    return " ".join(str(int(v)) for v in flat)


def random_factors(rng, shape, dtype):
    """mul's operands: floats of magnitude 0.5-2 with fractions (a product of a few stays
    finite in float16 and its rounding differs between orders); integers over the whole range,
    so products wrap, and small ones, so some do not. int64 only small: the test reads values
    as doubles, exact below 2^53, which a wrapped int64 product is not (mul_int64_wrap has
    exact ones)."""
    if dtype.startswith("float"):
        v = rng.integers(64, 256, size=shape) * rng.choice([-1, 1], size=shape) / 128.0
        v = v + rng.random(size=shape).round(3) / 128.0
        return v.astype(dtype)
    info = np.iinfo(dtype)
    top = 5 if dtype == "int64" else info.max
    wide = rng.integers(max(info.min, -top), top, size=shape, endpoint=True)
    small = rng.integers(max(info.min, -5), 6, size=shape)
    return np.where(rng.random(size=shape) < 0.5, wide, small).astype(dtype)


def random_values(rng, shape, dtype, with_nan):
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if dtype.startswith("float"):
        # Nonzero values with fractions, so rounding differs between orders; some NaN.
        v = rng.integers(1, 200, size=shape) * rng.choice([-1, 1], size=shape) / 8.0
        v = v + rng.random(size=shape).round(3)
        v = v.astype(dtype)
        if with_nan and v.size:
            mask = rng.random(size=shape) < 0.1
            v[mask] = np.nan
        return v
    info = np.iinfo(dtype)
    lo = max(info.min, -(1 << 40))
    hi = min(info.max, 1 << 40)
    return rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)


def emit(name, op, dtype, index_dtype, tensor, indices, updates, expected):
    print(f"case {name}")
    print(f"op {op}")
    print(f"dtype {dtype}")
    print(f"index_dtype {index_dtype}")
    print("tensor_shape " + " ".join(str(d) for d in tensor.shape))
    print("tensor " + text(tensor, dtype))
    print("indices_shape " + " ".join(str(d) for d in indices.shape))
    print("indices " + text(indices, "int64"))
    print("updates_shape " + " ".join(str(d) for d in updates.shape))
    print("updates " + text(updates, dtype))
    print("expected " + text(expected, dtype))
    print("end")


def make_case(rng, number, op, dtype):
    rank = int(rng.integers(1, 5))
    shape = tuple(int(d) for d in rng.integers(1, 6, size=rank))
    depth = int(rng.integers(1, rank + 1))
    batch_rank = int(rng.integers(1, 3))
    batch = tuple(int(d) for d in rng.integers(1, 5, size=batch_rank))
    index_dtype = "int32" if number % 2 == 0 else "int64"
    slice_shape = shape[depth:]
    num_slices = int(np.prod(shape[:depth]))
    rows = int(np.prod(batch))
    if op == "update":
        rows = min(rows, num_slices)
        batch = (rows,)
        flat = rng.permutation(num_slices)[:rows]
    else:
        # Few distinct slices, so duplicates are common.
        flat = rng.integers(0, max(1, num_slices // 2), size=rows)
    components = np.stack(np.unravel_index(flat, shape[:depth]), axis=-1)
    indices = components.reshape(batch + (depth,)).astype(index_dtype)
    if op == "mul":
        tensor = random_factors(rng, shape, dtype)
        updates = random_factors(rng, batch + slice_shape, dtype)
    else:
        tensor = random_values(rng, shape, dtype, with_nan=op in ("min", "max"))
        updates = random_values(rng, batch + slice_shape, dtype, with_nan=op in ("min", "max"))

    out = tensor.copy()
    view = out.reshape((num_slices,) + slice_shape)
    rows_updates = updates.reshape((rows,) + slice_shape)
    if op == "update":
        view[flat] = rows_updates
    else:
        with np.errstate(over="ignore", invalid="ignore"):
            OPS[op].at(view, flat, rows_updates)
    if dtype == "int64":  # exact as doubles (the reader's)
        assert max(abs(int(v)) for v in np.concatenate([tensor.ravel(), out.ravel()])) < 2**53
    emit(f"{op}_{dtype}_{number}", op, dtype, index_dtype, tensor, indices, updates, out)


def main():
    rng = np.random.default_rng(20261130)
    number = 0
    for op in ["sub", "add", "min", "max", "update"]:
        for dtype in DTYPES:
            for _ in range(2):
                make_case(rng, number, op, dtype)
                number += 1
    for _ in range(2):
        make_case(rng, number, "update", "bool")
        number += 1
    # Wrap-around: uint8 0 - 1 = 255, int8 127 + 1 = -128.
    emit("sub_uint8_wrap", "sub", "uint8", "int32", np.array([0, 5], np.uint8),
         np.array([[0], [1], [1]], np.int32), np.array([1, 3, 4], np.uint8),
         np.array([255, 254], np.uint8))
    t = np.array([127, -128], np.int8)
    expected = t.copy()
    np.add.at(expected, np.array([0, 1]), np.array([1, -1], np.int8))
    emit("add_int8_wrap", "add", "int8", "int64", t, np.array([[0], [1]], np.int64),
         np.array([1, -1], np.int8), expected)
    mul_cases()


def mul_cases():
    rng = np.random.default_rng(20261204)
    number = 0
    for dtype in DTYPES:
        for _ in range(3):
            make_case(rng, number, "mul", dtype)
            number += 1
    # Wrap-around: int32 2147483647 * 2 = -2, int8 -128 * -1 = -128, uint8 16 * 16 = 0,
    # int64 2^62 * 2 = -2^63 and 2^62 * 4 = 0 (exact as doubles).
    for dtype, tensor, updates in (("int32", [2147483647, 65536], [2, 65536]),
                                   ("int64", [2**62, 2**62], [2, 4]),
                                   ("int8", [-128, 100], [-1, 3]),
                                   ("uint8", [16, 200], [16, 2])):
        t = np.array(tensor, dtype)
        expected = t.copy()
        np.multiply.at(expected, np.array([0, 1]), np.array(updates, dtype))
        emit(f"mul_{dtype}_wrap", "mul", dtype, "int32", t, np.array([[0], [1]], np.int32),
             np.array(updates, dtype), expected)


if __name__ == "__main__":
    main()
