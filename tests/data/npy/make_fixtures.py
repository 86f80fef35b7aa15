#!/usr/bin/python3
"""Generates the .npy fixtures of tests/tools/test_npy.cpp with NumPy itself (Debian python3-numpy,
1.24). Run from anywhere: /usr/bin/python3 tests/data/npy/make_fixtures.py
Valid files come from np.save / np.lib.format.write_array; the malformed ones are NumPy's
output with one thing broken, so each exercises exactly one check."""
import io
import os
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def save(name, array, version=None, allow_pickle=False):
    with open(os.path.join(HERE, name), "wb") as f:
        np.lib.format.write_array(f, array, version=version, allow_pickle=allow_pickle)


def raw(name, header, data=b"", version=1, header_len=None):
    """A .npy file with the given header text (padded as NumPy pads it) and data bytes."""
    text = header.encode("latin1") if isinstance(header, str) else header
    preamble = 10 if version == 1 else 12
    pad = (-(preamble + len(text) + 1)) % 64
    text = text + b" " * pad + b"\n"
    length = len(text) if header_len is None else header_len
    out = b"\x93NUMPY" + bytes([version, 0])
    out += struct.pack("<H", length) if version == 1 else struct.pack("<I", length)
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(out + text + data)


def numpy_bytes(array):
    b = io.BytesIO()
    np.save(b, array)
    return b.getvalue()


INTS = [0, 1, -2, 3, 100, -100]
UINTS = [0, 1, 2, 3, 200, 255]
FLOATS = [0.0, 1.5, -2.25, 1000.0, np.inf, -0.0]
BOOLS = [True, False, True, True, False, False]

# Every dtype tensorbuf reads, both byte orders, shape (2, 3).
for code, values in [("b1", BOOLS), ("u1", UINTS), ("i1", INTS), ("i2", INTS), ("i4", INTS),
                     ("i8", INTS), ("f2", FLOATS), ("f4", FLOATS), ("f8", FLOATS)]:
    for order, tag in [("<", "le"), (">", "be")]:
        save(f"{code}_{tag}.npy", np.array(values, dtype=order + code).reshape(2, 3))

# Format versions 1.0, 2.0 and 3.0 of the same array.
for version in [(1, 0), (2, 0), (3, 0)]:
    save(f"f4_v{version[0]}.npy", np.array(FLOATS, dtype="<f4").reshape(2, 3), version=version)

# 0-d arrays are scalars; empty arrays; NaN; a non-contiguous array NumPy writes in C order.
save("scalar_f8.npy", np.array(2.5, dtype="<f8"))
save("scalar_i4.npy", np.array(-7, dtype="<i4"))
save("empty_f4.npy", np.zeros((0, 3), dtype="<f4"))
save("nan_f4.npy", np.array([np.nan, -np.nan, 1.0], dtype="<f4"))
save("transposed_i4.npy", np.arange(6, dtype="<i4").reshape(2, 3).T)  # F-contiguous: fortran_order True

# Byte strings: trailing NULs stripped on load (NumPy does it on creation already), embedded
# NULs and non-ASCII bytes kept.
save("strings.npy", np.array([[b"Hello", b"", b"a\x00b"], [b"xyz", b"\xc3\xa9", b"longer string"]]))
save("strings_scalar.npy", np.array(b"Hi"))
save("strings_empty.npy", np.zeros((0,), dtype="S3"))
# bfloat16 bits stored as uint16: 1.0, 2.0, -3.0.
save("bf16_bits_u2.npy", np.array([0x3F80, 0x4000, 0xC040], dtype="<u2"))

# Rejected dtypes and layouts.
save("fortran.npy", np.asfortranarray(np.arange(6, dtype="<f4").reshape(2, 3)))
save("object.npy", np.array([1, "a"], dtype=object), allow_pickle=True)
save("unicode.npy", np.array(["ab", "c"]))
save("structured.npy", np.zeros(2, dtype=[("a", "<i4"), ("b", "<f4")]))
save("complex.npy", np.zeros(2, dtype="<c8"))
save("uint32.npy", np.zeros(2, dtype="<u4"))

# Broken files: truncated data, lying or malformed headers.
good = numpy_bytes(np.arange(6, dtype="<f4"))
with open(os.path.join(HERE, "truncated.npy"), "wb") as f:
    f.write(good[:-5])
with open(os.path.join(HERE, "truncated_header.npy"), "wb") as f:
    f.write(good[:40])
with open(os.path.join(HERE, "truncated_preamble.npy"), "wb") as f:
    f.write(good[:7])
data6 = np.arange(6, dtype="<f4").tobytes()
raw("lying_shape.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1000,), }", data6)
raw("huge_dims.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4611686018427387904), }", data6)
raw("huge_bytes.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (2305843009213693952,), }", data6)
raw("huge_dim_digits.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,), }", data6)
raw("huge_strings.npy", "{'descr': '|S1', 'fortran_order': False, 'shape': (1099511627776,), }", b"abc")
raw("huge_itemsize.npy", "{'descr': '|S999999999999', 'fortran_order': False, 'shape': (1,), }", b"abc")
raw("negative_dim.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", data6)
raw("non_ascii.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), 'x\u00e9': 1}".encode("utf-8"), data6)
raw("unterminated.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), ", data6)
raw("unterminated_string.npy", "{'descr': '<f4, 'fortran_order': False, 'shape': (6,)}", data6)
raw("missing_key.npy", "{'descr': '<f4', 'shape': (6,), }", data6)
raw("extra_key.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), 'extra': 1, }", data6)
raw("shape_not_tuple.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (6), }", data6)
raw("not_a_dict.npy", "['<f4', False, (6,)]", data6)
raw("header_length_lies.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }", data6, header_len=60000)
raw("v2_header_length_lies.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }", data6, version=2, header_len=0xFFFFFFF0)
raw("bad_version.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }", data6, version=4)
# Valid although unusual: double quotes, keys in another order, no trailing comma.
raw("reordered_keys.npy", '{"shape": (2, 3), "fortran_order": False, "descr": "<i2"}',
    np.arange(6, dtype="<i2").tobytes())
with open(os.path.join(HERE, "bad_magic.npy"), "wb") as f:
    f.write(b"\x93NUMPZ" + good[6:])
# Two arrays saved one after the other: np.load reads the first and ignores the rest.
with open(os.path.join(HERE, "trailing_bytes.npy"), "wb") as f:
    f.write(good + numpy_bytes(np.arange(3, dtype="<i8")))
