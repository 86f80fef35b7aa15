#!/usr/bin/python3
"""Writes vectors.txt: boolean_mask_update cases whose expected results come from NumPy.

Run with /usr/bin/python3 (Debian's python3-numpy, 1.24) from this folder:
    /usr/bin/python3 generate.py > vectors.txt

Expected values are NumPy's `o = t.copy(); o[(slice(None),)*axis + (m,)] = u`. The argument
checks that spec/boolean_mask_update.md adds to NumPy (scalar mask, axis range, exact mask
shape, broadcast=false) are applied first. One NumPy quirk is not copied: when the mask covers
every dim of the tensor, NumPy's boolean fast path rejects updates of ndim > 1 even when they
broadcast (e.g. [1, n]); there the leading size-1 dims are dropped before assigning, which is
NumPy's own rule for every other index.

Format, one case per block:
    case NAME
    dtype float32
    axis -1
    broadcast 1
    tensor [2,3] 1 2 3 4 5 6
    mask [3] 1 0 1
    updates [] 0
    expected [2,3] 0 2 0 0 5 0        (or: expected error)
    end
"""
import sys

import numpy as np

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


def fmt_values(a):
    a = np.asarray(a)
    if a.dtype == np.bool_:
        return " ".join("1" if v else "0" for v in a.reshape(-1))
    if a.dtype.kind == "f":
        return " ".join(repr(float(v)) for v in a.reshape(-1))
    return " ".join(str(int(v)) for v in a.reshape(-1))


def fmt_shape(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def expected(t, m, u, axis, broadcast):
    """The result array, or None when the op must raise InvalidArgumentError."""
    if m.ndim == 0:
        return None
    if axis < 0:
        axis += t.ndim
    if axis < 0 or axis + m.ndim > t.ndim:
        return None
    if m.shape != t.shape[axis:axis + m.ndim]:
        return None
    n = int(np.count_nonzero(m))
    target = t.shape[:axis] + (n,) + t.shape[axis + m.ndim:]
    if not broadcast and u.shape != target:
        return None
    o = t.copy()
    index = (slice(None),) * axis + (m,)
    value = u
    if axis == 0 and m.ndim == t.ndim:
        while value.ndim > 1 and value.shape[0] == 1:
            value = value.reshape(value.shape[1:])
    try:
        o[index] = value
    except (ValueError, TypeError, IndexError):
        return None
    return o


def random_values(rng, dtype, shape):
    if dtype == "bool":
        return rng.randint(0, 2, size=shape).astype(np.bool_)
    if dtype == "uint8":
        return rng.randint(0, 256, size=shape).astype(np.uint8)
    if dtype.startswith("int"):
        return rng.randint(-1000, 1000, size=shape).astype(dtype)
    return (rng.standard_normal(size=shape) * 100).astype(dtype)


def emit(out, name, t, m, u, axis, broadcast):
    e = expected(t, m, u, axis, broadcast)
    out.write("case %s\n" % name)
    out.write("dtype %s\n" % t.dtype.name)
    out.write("axis %d\n" % axis)
    out.write("broadcast %d\n" % (1 if broadcast else 0))
    out.write("tensor %s %s\n" % (fmt_shape(t.shape), fmt_values(t)))
    out.write("mask %s %s\n" % (fmt_shape(m.shape), fmt_values(m)))
    out.write("updates %s %s\n" % (fmt_shape(u.shape), fmt_values(u)))
    if e is None:
        out.write("expected error\n")
    else:
        out.write("expected %s %s\n" % (fmt_shape(e.shape), fmt_values(e)))
    out.write("end\n")


def spec_cases(out):
    f = np.float32
    b = np.array
    T, F = True, False
    t1 = b([[0, 0, 0], [1, 1, 1], [2, 2, 2]], f)
    for i, u in enumerate([b([[-1, -1, -1]], f), b([-1, -1, -1], f), b(-1, f)]):
        emit(out, "B1_%d" % i, t1, b([T, F, F]), u, 0, True)
    t2 = np.arange(10, dtype=f).reshape(1, 1, 10)
    m2 = b([T, T, F, F, T, T, T, F, F, F])
    emit(out, "B2_0", t2, m2, b([-1] * 5, f), 2, True)
    emit(out, "B2_1", t2, m2, b(-1, f), 2, True)
    emit(out, "B3", b([1, 2, 3, 4], f), b([F, T, F, T]), b([-1, 2], f), 0, True)
    emit(out, "B4", b([1, 2, 3], f), b(True), b(0, f), 0, True)
    emit(out, "B5", np.zeros((3, 3), f), b([T, F]), b(0, f), 0, True)
    emit(out, "B6", np.zeros((2, 3), f), b([T, F, T]), b(0, f), 2, True)
    t7 = b([[1, 2, 3], [4, 5, 6]], f)
    emit(out, "B7_0", t7, b([T, F, T]), b(0, f), 1, True)
    emit(out, "B7_1", t7, b([T, F, T]), b(0, f), -1, True)
    emit(out, "B8", t7, b([T, F, T]), b([[7, 8], [9, 10]], f), 1, True)
    emit(out, "B9", b([1, 2, 3], f), b([F, F, F]), b(9, f), 0, True)
    emit(out, "B10", b([1, 2, 3], f), b([F, F, F]), b([7, 8], f), 0, True)
    emit(out, "B11", b([[1, 2], [3, 4]], f), b([[T, F], [F, T]]), b(0, f), 0, True)
    m12 = b([[T, F], [F, T]])
    emit(out, "B12_0", np.zeros((2, 2, 3), f), m12, b([1, 2, 3], f), 0, False)
    emit(out, "B12_1", np.zeros((2, 2, 3), f), m12, b([1, 2, 3], f), 0, True)
    emit(out, "B13", np.zeros((2, 2, 3), f), m12, b([[1, 2, 3], [4, 5, 6]], f), 0, False)
    emit(out, "B14", np.zeros((2, 3), f), b([T, F]), b(0, f), -3, True)
    emit(out, "B15", np.zeros((2, 3, 2), f), b([F, T, T]), b([[1, 2], [3, 4]], f), 1, True)
    emit(out, "B16", np.zeros((2, 3, 2), f), b([F, T, T]), b([[1, 2], [3, 4]], f), 1, False)


def random_cases(out, rng, count):
    for i in range(count):
        dtype = DTYPES[rng.randint(len(DTYPES))]
        rank = rng.randint(1, 5)
        shape = tuple(int(d) for d in rng.randint(1, 5, size=rank))
        axis = rng.randint(0, rank)
        k = rng.randint(1, rank - axis + 1)
        density = [0.0, 0.01, 0.5, 1.0][rng.randint(4)]
        t = random_values(rng, dtype, shape)
        m = rng.random_sample(size=shape[axis:axis + k]) < density
        n = int(np.count_nonzero(m))
        target = shape[:axis] + (n,) + shape[axis + k:]
        form = rng.randint(6)
        if form == 0:
            ushape = ()
        elif form == 1:
            ushape = target[axis:]
        elif form == 2:
            ushape = target
        elif form == 3:
            ushape = tuple(1 if rng.random_sample() < 0.4 else d for d in target)
        elif form == 4:
            ushape = (1,) + target
        else:
            ushape = tuple(target)
            if ushape:
                j = rng.randint(len(ushape))
                ushape = ushape[:j] + (ushape[j] + 1,) + ushape[j + 1:]
        u = random_values(rng, dtype, ushape)
        broadcast = rng.random_sample() >= 0.2
        out_axis = axis - rank if rng.random_sample() < 0.3 else axis
        emit(out, "R%03d" % i, t, m, u, out_axis, broadcast)


def main():
    out = sys.stdout
    out.write("# boolean_mask_update vectors from NumPy %s; see generate.py\n" % np.__version__)
    spec_cases(out)
    random_cases(out, np.random.RandomState(5), 240)


if __name__ == "__main__":
    main()
