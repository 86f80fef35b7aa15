#!/usr/bin/python3
"""Writes vectors.txt: boolean_mask and compress cases whose expected results come from NumPy.

Run with /usr/bin/python3 (Debian's python3-numpy, 1.24) from this folder:
    /usr/bin/python3 generate.py > vectors.txt

Expected values: boolean_mask is NumPy's `t[(slice(None),)*axis + (m,)]` (after the mask rules
of spec/boolean_mask_update.md rule 2, which NumPy does not all make: exact mask shape, bool
mask, rank >= 1); compress is `np.compress(c, t, axis)` (no axis: along the flattened input),
an IndexError of NumPy (a true condition entry past the axis) being `expected error`.

Format, one case per block:
    case NAME
    op boolean_mask            (or compress)
    dtype float32
    axis 1                     (compress: or none)
    tensor [2,3] 1 2 3 4 5 6
    mask [3] 1 0 1
    expected [2,2] 1 3 4 6     (or: expected error)
    end
"""
import numpy as np

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


def array_text(a):
    shape = "[" + ",".join(str(d) for d in a.shape) + "]"
    flat = a.reshape(-1)
    if a.dtype == np.bool_:
        flat = flat.astype(np.int64)
    return " ".join([shape] + [repr(v.item()) if a.dtype.kind == "f" else str(v.item())
                               for v in flat])


def values_of(rng, dtype, shape):
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if dtype.startswith("float"):
        return (rng.integers(-50, 50, size=shape) / 4).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -1000), min(info.max, 1000), size=shape,
                        endpoint=True).astype(dtype)


def block(name, op, dtype, axis, tensor, mask, expected):
    lines = [f"case {name}", f"op {op}", f"dtype {dtype}",
             f"axis {'none' if axis is None else axis}",
             f"tensor {array_text(tensor)}", f"mask {array_text(mask.astype(np.bool_))}"]
    lines.append("expected error" if expected is None else f"expected {array_text(expected)}")
    lines.append("end")
    return "\n".join(lines)


def boolean_mask_cases(rng):
    out = []
    for i in range(48):
        dtype = DTYPES[i % len(DTYPES)]
        rank = 1 + i % 4
        shape = tuple(int(d) for d in rng.integers(0, 5, size=rank))
        mask_rank = 1 + int(rng.integers(0, rank))
        axis = int(rng.integers(0, rank - mask_rank + 1))
        tensor = values_of(rng, dtype, shape)
        mask = rng.random(shape[axis:axis + mask_rank]) < [0.0, 0.5, 1.0][i % 3]
        expected = tensor[(slice(None),) * axis + (mask,)]
        given_axis = axis - rank if i % 2 else axis
        out.append(block(f"BM{i}", "boolean_mask", dtype, given_axis, tensor, mask, expected))
    return out


def compress_cases(rng):
    out = []
    for i in range(36):
        dtype = DTYPES[i % len(DTYPES)]
        rank = 1 + i % 3
        shape = tuple(int(d) for d in rng.integers(1, 5, size=rank))
        axis = None if i % 4 == 0 else int(rng.integers(-rank, rank))
        size = int(np.prod(shape)) if axis is None else shape[axis]
        # Shorter, equal and longer conditions (longer ones sometimes true past the end).
        length = max(0, size + int(rng.integers(-2, 3)))
        condition = rng.random(length) < 0.5
        tensor = values_of(rng, dtype, shape)
        try:
            expected = np.compress(condition, tensor, axis=axis)
        except IndexError:
            expected = None
        out.append(block(f"C{i}", "compress", dtype, axis, tensor, condition, expected))
    return out


def main():
    rng = np.random.default_rng(20261205)
    print(f"# boolean_mask and compress vectors from NumPy {np.__version__}; see generate.py")
    print("\n".join(boolean_mask_cases(rng) + compress_cases(rng)))


if __name__ == "__main__":
    main()
