#!/usr/bin/python3
"""Writes vectors.txt: gather_nd cases whose expected results come from NumPy.

Run with /usr/bin/python3 (Debian's python3-numpy, 1.24) from this folder:
    /usr/bin/python3 generate.py > vectors.txt

Expected values: for each batch (the first batch_dims dims of params and indices, flattened),
NumPy's advanced indexing `p[tuple(rows.T)]` with the rows of that batch, reshaped to
indices.shape[:-1] + params.shape[batch_dims + D:] (spec/indexing.md 3). Rows with a component
outside [0, dim) (negative ones too, which NumPy would wrap) are bad: with policy `error` the
case expects an error, with policy `drop` their output slices are zeros.

Format, one case per block:
    case NAME
    dtype float32
    batch_dims 1
    policy error               (or drop)
    params [2,3] 1 2 3 4 5 6
    indices int64 [2,1] 0 2
    expected [2] 1 6           (or: expected error)
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


def gather_nd(params, indices, batch_dims):
    """NumPy's gather_nd: (output, any bad row); bad rows give zeros."""
    b = batch_dims
    depth = indices.shape[-1]
    out_shape = indices.shape[:-1] + params.shape[b + depth:]
    batches = int(np.prod(params.shape[:b], dtype=np.int64))
    p = params.reshape((batches,) + params.shape[b:])
    rows = indices.reshape((batches, -1, depth))
    bounds = np.array(params.shape[b:b + depth])
    bad = np.any((rows < 0) | (rows >= bounds), axis=-1)
    safe = np.where(bad[..., None], 0, rows)
    slices = []
    for batch in range(batches):
        if p.shape[1:1 + depth] and min(p.shape[1:1 + depth]) == 0:
            got = np.zeros((rows.shape[1],) + p.shape[1 + depth:], dtype=params.dtype)
        else:
            got = p[batch][tuple(safe[batch].T)]
        got = got.copy()
        got[bad[batch]] = 0
        slices.append(got)
    if slices:
        out = np.stack(slices)
    else:
        out = np.zeros((0,), dtype=params.dtype)
    return out.reshape(out_shape), bool(bad.any())


def block(name, dtype, batch_dims, policy, params, indices, expected):
    lines = [f"case {name}", f"dtype {dtype}", f"batch_dims {batch_dims}", f"policy {policy}",
             f"params {array_text(params)}", f"indices {indices.dtype} {array_text(indices)}"]
    lines.append("expected error" if expected is None else f"expected {array_text(expected)}")
    lines.append("end")
    return "\n".join(lines)


def cases(rng):
    out = []
    for i in range(72):
        dtype = DTYPES[i % len(DTYPES)]
        rank = 1 + i % 4
        shape = tuple(int(d) for d in rng.integers(1, 5, size=rank))
        b = int(rng.integers(0, rank)) if i % 3 == 0 else 0
        depth = 1 + int(rng.integers(0, rank - b))
        row_shape = tuple(int(d) for d in rng.integers(0, 4, size=int(rng.integers(0, 3))))
        rows = int(np.prod(shape[:b] + row_shape, dtype=np.int64))
        bounds = np.array(shape[b:b + depth])
        indices = (rng.random((rows, depth)) * bounds).astype(np.int64)
        # A third of the cases has bad rows: negative (NumPy would wrap them) or past the end.
        if i % 3 == 1 and rows > 0:
            r = int(rng.integers(0, rows))
            k = int(rng.integers(0, depth))
            indices[r, k] = -1 if i % 2 else bounds[k] + int(rng.integers(0, 3))
        indices = indices.reshape(shape[:b] + row_shape + (depth,))
        indices = indices.astype(np.int32 if i % 2 else np.int64)
        params = values_of(rng, dtype, shape)
        expected, bad = gather_nd(params, indices.astype(np.int64), b)
        out.append(block(f"G{i}", dtype, b, "drop", params, indices, expected))
        out.append(block(f"G{i}e", dtype, b, "error", params, indices, None if bad else expected))
    return out


def main():
    rng = np.random.default_rng(20261205)
    print(f"# gather_nd vectors from NumPy {np.__version__}; see generate.py")
    print("\n".join(cases(rng)))


if __name__ == "__main__":
    main()
