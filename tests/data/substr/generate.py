#!/usr/bin/python3
"""Generates substr_vectors.txt: substr cases computed with Python's own slicing.

Run from anywhere: /usr/bin/python3 tests/data/substr/generate.py
Deterministic (fixed seed); the output is committed beside this script.

Format, one record per line, fields separated by single spaces:
  case <name> <unit: byte|utf8> <dtype: int32|int64>
  input <shape> <string>...      shape "[2,3]" ("[]" a scalar); strings as hex, "-" for b''
  pos <shape> <int>...
  len <shape> <int>...
  out <shape> <string>...         the result under kDrop ("" for an out-of-range element)
  error <flat index> <message>    only when some pos is out of range: kError's message
  end
Lines starting with # are comments.
"""
import os
import random

import numpy as np

MAX_SHOWN = 64


def char_starts(s):
    """Rule 4: a character starts at byte 0 and at every byte outside 0x80..0xBF."""
    return [i for i, b in enumerate(s) if i == 0 or not 0x80 <= b <= 0xBF]


def units_of(s, utf8):
    """The string as a list of units (bytes objects), so that list slicing does the work."""
    if not utf8:
        return [s[i:i + 1] for i in range(len(s))]
    starts = char_starts(s) + [len(s)]
    return [s[a:b] for a, b in zip(starts, starts[1:])]


def substr_one(s, pos, length, utf8):
    units = units_of(s, utf8)
    n = len(units)
    p = n + pos if pos < 0 else pos
    if not 0 <= p <= n:
        return None
    picked = units[p:] if length < 0 else units[p:p + length]
    return b"".join(picked)


def shown(s):
    text = repr(s[:MAX_SHOWN])
    return text + "..." if len(s) > MAX_SHOWN else text


def run_case(strings, in_shape, pos, length, pos_shape, utf8):
    out_shape = np.broadcast_shapes(tuple(in_shape), tuple(pos_shape))
    in_index = np.broadcast_to(np.arange(len(strings)).reshape(in_shape), out_shape).ravel()
    pos_index = np.broadcast_to(np.arange(len(pos)).reshape(pos_shape), out_shape).ravel()
    out, error = [], None
    for flat, (i, j) in enumerate(zip(in_index, pos_index)):
        r = substr_one(strings[i], pos[j], length[j], utf8)
        if r is None and error is None:
            error = (flat, "pos %d out of range for string %s at index %d"
                     % (pos[j], shown(strings[i]), flat))
        out.append(b"" if r is None else r)
    return list(out_shape), out, error


def fmt_shape(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def fmt_strings(values):
    return " ".join(v.hex() if v else "-" for v in values)


def random_string(rng, kind, max_len):
    n = rng.randint(0, max_len) if rng.random() < 0.9 else 0
    pieces = ["é", "€", "😀", "Ж"]
    out = b""
    while len(out) < n:
        r = rng.random()
        if kind == "ascii" or r < 0.5:
            out += bytes([rng.randint(0x20, 0x7E)])
        elif kind == "utf8":
            out += rng.choice(pieces).encode()
        else:
            out += bytes([rng.randint(0, 255)])
    return out


def random_shape(rng, rank, max_dim):
    return [rng.randint(1, max_dim) for _ in range(rank)]


def cases():
    yield "hello_world", [b"Hello", b"World"], [2], [1], [3], [], "byte", "int32"
    reprs = [b"it's", b'say "hi"', b"both ' \"", b"\\\t\n\r\x00\x7f\x80\xff", b"", b"x" * 64]
    for i, s in enumerate(reprs):
        yield "python_repr_%d" % i, [s], [], [99], [1], [], "byte", "int32"
    yield "long_string_truncated", [bytes(range(32, 127))], [], [200], [1], [], "byte", "int64"
    yield "utf8_mixed", ["aé€😀".encode()], [], [0, 1, 2, 3, 4, -1, -4, 5], [2] * 8, [8], \
        "utf8", "int32"
    rng = random.Random(20240606)
    forms = ["scalar", "same", "row", "smaller", "both"]
    for k in range(300):
        form = forms[k % len(forms)]
        rank = rng.randint(0, 3)
        if form == "scalar":
            in_shape, pos_shape = random_shape(rng, rank, 4), []
        elif form == "same":
            in_shape = random_shape(rng, rank, 4)
            pos_shape = list(in_shape)
        elif form == "row":
            in_shape = random_shape(rng, max(rank, 1) + 1, 4)
            pos_shape = [in_shape[-1]]
        elif form == "smaller":
            pos_shape = random_shape(rng, max(rank, 1) + 1, 4)
            in_shape = [] if rng.random() < 0.5 else [1, pos_shape[-1]]
        else:
            a, b = [], []
            for _ in range(rank + 1):
                size, pick = rng.randint(2, 3), rng.randint(0, 2)
                a.append(1 if pick == 1 else size)
                b.append(1 if pick == 2 else size)
            in_shape, pos_shape = a, b[rng.randint(0, len(b) - 1):]
        if k % 37 == 0:
            in_shape = [0] if rng.random() < 0.5 else [2, 0]
            pos_shape = [] if rng.random() < 0.5 else [1]
        kind = ["ascii", "utf8", "bytes"][k % 3]
        max_len = 80 if k % 5 == 0 else 10
        strings = [random_string(rng, kind, max_len)
                   for _ in range(int(np.prod(in_shape, dtype=np.int64)))]
        npos = int(np.prod(pos_shape, dtype=np.int64))
        reach = max_len + 3
        pos = [rng.randint(-reach, reach) // (1 if rng.random() < 0.3 else 4) for _ in range(npos)]
        length = [rng.randint(-3, reach) for _ in range(npos)]
        unit = "utf8" if k % 2 else "byte"
        dtype = "int64" if k % 4 >= 2 else "int32"
        yield "random_%d_%s" % (k, form), strings, in_shape, pos, length, pos_shape, unit, dtype


def main():
    lines = ["# Generated by generate.py (Python slicing); do not edit."]
    for name, strings, in_shape, pos, length, pos_shape, unit, dtype in cases():
        out_shape, out, error = run_case(strings, in_shape, pos, length, pos_shape, unit == "utf8")
        lines.append("case %s %s %s" % (name, unit, dtype))
        lines.append(("input %s %s" % (fmt_shape(in_shape), fmt_strings(strings))).rstrip())
        lines.append(("pos %s %s" % (fmt_shape(pos_shape), " ".join(map(str, pos)))).rstrip())
        lines.append(("len %s %s" % (fmt_shape(pos_shape), " ".join(map(str, length)))).rstrip())
        lines.append(("out %s %s" % (fmt_shape(out_shape), fmt_strings(out))).rstrip())
        if error is not None:
            lines.append("error %d %s" % error)
        lines.append("end")
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "substr_vectors.txt"), "w", encoding="ascii") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
