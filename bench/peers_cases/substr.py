"""Peers of bench/bench_substr.cpp: Python slicing (bytes for the byte unit, str for UTF-8
characters) and, for the byte unit with scalar pos/len, NumPy's fixed-width `S` arrays (a
column slice of the uint8 view, what a NumPy user does for a fixed substring). pyarrow
(Arrow's C++ kernels) for the scalar cases: pyarrow.compute.binary_slice on a binary array
(byte unit) and utf8_slice_codeunits on a string array (UTF-8 unit; it counts code points,
like our kUtf8Char), with start = pos and stop = pos + len (None for len -1, "to the end"),
which is our substr exactly for these cases (pos >= 0, within every string). The elementwise
cases have no pyarrow peer: SliceOptions takes one start/stop for the whole array, not one per
string. No GPU peer: neither CuPy nor PyTorch has strings; the CUDA cases are judged against
the device-copy limit only (TARGETS).

Same strings as the C++ cases: string i has 7..21 (short) or 800..1020 (long) characters
(bench::random_ints, seed 31); global character c is "é" when random_bits(32, c) % 8 == 0,
else 'a' + bits % 26. pos/len as in the C++ file (seeds 33, 34). Bytes as the C++ case counts
them: offsets in and out, pos/len, and the substrings read and written (set after the first
run, like the C++ case does after its warm-up). The input bytes counted as read are the
substrings in byte units; in UTF-8 units, the bytes any implementation must read to find the
characters: every byte before the substring's end for pos >= 0, every byte from its start to the
string's end for pos < 0 (_utf8_bytes_read; bench_substr.cpp counts the same).
"""
from . import Case, MiB, random_bits, random_ints

SHORT = (4 * MiB, 7, 21)
LONG = (64 * 1024, 800, 1020)

TARGETS = {
    ("substr_short_byte_scalar", "cpu"): {"vs": {"python": 10.0}},
    ("substr_short_byte_elementwise", "cpu"): {"vs": {"python": 10.0}},
    ("substr_short_utf8_scalar", "cpu"): {"vs": {"python": 10.0}},
    ("substr_short_utf8_elementwise", "cpu"): {"vs": {"python": 10.0}},
    ("substr_long_byte_scalar", "cpu"): {"ratio_to_limit": 0.5, "vs": {"python": 10.0}},
    ("substr_long_byte_elementwise", "cpu"): {"ratio_to_limit": 0.5, "vs": {"python": 10.0}},
    ("substr_long_utf8_scalar", "cpu"): {"ratio_to_limit": 0.5, "vs": {"python": 10.0}},
    ("substr_long_utf8_elementwise", "cpu"): {"ratio_to_limit": 0.5, "vs": {"python": 10.0}},
    ("substr_long_byte_scalar", "cuda"): {"ratio_to_limit": 0.5},
    ("substr_long_byte_elementwise", "cuda"): {"ratio_to_limit": 0.5},
    ("substr_long_utf8_scalar", "cuda"): {"ratio_to_limit": 0.5},
    ("substr_long_utf8_elementwise", "cuda"): {"ratio_to_limit": 0.5},
}

_cache = {}


def _strings(size):
    """The case's strings as a list of bytes (cached)."""
    if size in _cache:
        return _cache[size]
    import numpy as np
    n, lo, hi = size
    chars = random_ints(n, lo, hi + 1, 31)
    first = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(chars, out=first[1:])
    bits = random_bits(int(first[-1]), 32)
    accent = (bits % np.uint64(8)) == 0
    letters = (np.uint64(ord("a")) + bits % np.uint64(26)).astype(np.uint8)
    width = accent.astype(np.int64) + 1
    pos = np.zeros(len(width) + 1, dtype=np.int64)
    np.cumsum(width, out=pos[1:])
    buf = np.empty(int(pos[-1]), dtype=np.uint8)
    buf[pos[:-1]] = np.where(accent, 0xC3, letters)
    buf[pos[:-1][accent] + 1] = 0xA9
    raw = buf.tobytes()
    offsets = pos[first].tolist()
    strings = [raw[a:b] for a, b in zip(offsets[:-1], offsets[1:])]
    _cache[size] = strings
    return strings


def _pos_len(size, elementwise):
    n, lo, _ = size
    long_case = lo > 100
    if not elementwise:
        return (16, -1) if long_case else (2, 8)
    reach, max_len = (700, 800) if long_case else (6, 13)
    return (random_ints(n, -reach, reach + 1, 33).tolist(),
            random_ints(n, -1, max_len, 34).tolist())


def _utf8_bytes_read(strings, pos, length):
    """Input bytes a UTF-8 substr must read (see the module doc); strings as bytes, pos and
    length lists or scalars."""
    n = len(strings)
    pos = pos if isinstance(pos, list) else [pos] * n
    length = length if isinstance(length, list) else [length] * n
    total = 0
    for s, p, ln in zip(strings, pos, length):
        text = s.decode("utf-8", errors="surrogateescape")
        nchars = len(text)
        c = nchars + p if p < 0 else p
        if c < 0 or c > nchars:
            continue
        end_char = nchars if ln < 0 or ln >= nchars - c else c + ln
        if p >= 0:
            total += len(text[:end_char].encode("utf-8", errors="surrogateescape"))
        else:
            total += len(text[c:].encode("utf-8", errors="surrogateescape"))
    return total


def _bytes(n, elementwise, unit, strings, pos, length, out_bytes):
    """The case's byte count, as bench_substr.cpp counts it."""
    read = _utf8_bytes_read(strings, pos, length) if unit == "utf8" else out_bytes
    return 16.0 * (n + 1) + (8.0 * n if elementwise else 8.0) + read + out_bytes


def _python_call(strings, pos, length, elementwise):
    if not elementwise:
        if length < 0:
            return lambda: [s[pos:] for s in strings]
        return lambda: [s[pos:pos + length] for s in strings]

    def run():
        out = []
        append = out.append
        for s, p, ln in zip(strings, pos, length):
            start = p if p >= 0 else len(s) + p
            append(s[start:] if ln < 0 else s[start:start + ln])
        return out
    return run


def cases(ctx):
    np = ctx.numpy
    out = []
    for size_name, size in (("short", SHORT), ("long", LONG)):
        n = size[0]
        for elementwise in (False, True):
            for unit in ("byte", "utf8"):
                name = "substr_%s_%s_%s" % (size_name, unit, "elementwise" if elementwise
                                             else "scalar")
                case = Case(name, "cpu", "python", 0.0, None)

                def setup(case=case, size=size, n=n, elementwise=elementwise, unit=unit):
                    raw = _strings(size)
                    strings = [s.decode("utf-8") for s in raw] if unit == "utf8" else raw
                    pos, length = _pos_len(size, elementwise)
                    call = _python_call(strings, pos, length, elementwise)
                    result = call()
                    out_bytes = sum(len(r) if unit == "byte" else len(r.encode("utf-8"))
                                    for r in result)
                    case.bytes = _bytes(n, elementwise, unit, raw, pos, length, out_bytes)
                    return call
                case.setup = setup
                out.append(case)
        # NumPy: fixed-width S array, a column slice of its uint8 view (byte unit, scalar).
        case = Case("substr_%s_byte_scalar" % size_name, "cpu", "numpy", 0.0, None)

        def numpy_setup(case=case, size=size, n=n):
            strings = _strings(size)
            arr = np.array(strings, dtype="S")
            width = arr.dtype.itemsize
            view = arr.view(np.uint8).reshape(len(strings), width)
            pos, length = _pos_len(size, False)
            stop = width if length < 0 else min(width, pos + length)
            call = lambda: np.ascontiguousarray(view[:, pos:stop]).view("S%d" % (stop - pos))
            out_bytes = sum(len(s[pos:]) if length < 0 else len(s[pos:pos + length])
                            for s in strings)
            case.bytes = 16.0 * (n + 1) + 8.0 + 2.0 * out_bytes
            return call
        case.setup = numpy_setup
        out.append(case)
        # pyarrow: binary_slice / utf8_slice_codeunits (scalar cases).
        for unit in ("byte", "utf8"):
            case = Case("substr_%s_%s_scalar" % (size_name, unit), "cpu", "pyarrow", 0.0, None)

            def pyarrow_setup(case=case, size=size, n=n, unit=unit):
                pa = ctx.need("pyarrow")
                import pyarrow.compute as pc
                arr = pa.array(_strings(size), type=pa.binary())
                if unit == "utf8":
                    arr = arr.cast(pa.string())
                pos, length = _pos_len(size, False)
                stop = None if length < 0 else pos + length
                slice_ = pc.binary_slice if unit == "byte" else pc.utf8_slice_codeunits
                call = lambda: slice_(arr, start=pos, stop=stop)
                out_bytes = pc.sum(pc.binary_length(call())).as_py()
                case.bytes = _bytes(n, False, unit, _strings(size), pos, length, out_bytes)
                return call
            case.setup = pyarrow_setup
            out.append(case)
    return out
