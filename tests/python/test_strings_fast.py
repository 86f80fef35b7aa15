"""A flat list or tuple of str / bytes is read in two passes straight into the offsets and
chars (python/src/to_strings.cpp, from_flat_sequence), UTF-8 encoded by tensorbuf itself: the
same tensor as Python's own str.encode() gives, and as the general (nested) path."""

import random

import pytest

import tensorbuf as tb
from tensorbuf import _tensorbuf

SAMPLES = ["", "a", "word", "é", "ÿ", "Ā", "€uro", "中文", "\uffff", "\U0001f600x", "\x00mid\x00",
           "ascii" * 40, "ñ" * 300]


def test_every_code_point_width_matches_python_encode():
    strings = tb.StringTensor(SAMPLES)
    assert strings.shape == (len(SAMPLES),)
    assert strings.to_list() == [s.encode() for s in SAMPLES]
    assert tb.StringTensor(tuple(SAMPLES)).to_list() == [s.encode() for s in SAMPLES]


def test_random_strings_against_encode_and_the_general_path():
    rng = random.Random(34)
    alphabet = [chr(c) for c in (*range(0x20, 0x7f), *range(0xa0, 0x180), 0x20ac, 0x4e2d, 0x1f600)]
    for _ in range(20):
        values = ["".join(rng.choices(alphabet, k=rng.randrange(0, 12)))
                  for _ in range(rng.randrange(0, 50))]
        values += [v.encode() for v in values[: len(values) // 3]]  # str and bytes mixed
        expected = [v if isinstance(v, bytes) else v.encode() for v in values]
        assert tb.StringTensor(values).to_list() == expected
        assert _tensorbuf._strings_general_path(values).to_list() == expected


def test_what_the_flat_path_does_not_take_goes_the_general_way():
    assert tb.StringTensor([["a", "b"], ["c", "d"]]).shape == (2, 2)
    assert tb.StringTensor([]).shape == (0,)
    with pytest.raises(UnicodeEncodeError):
        tb.StringTensor(["ok", "\ud800"])  # a lone surrogate has no UTF-8
    with pytest.raises(tb.InvalidArgumentError, match="not str or bytes"):
        tb.StringTensor(["a", 1])
