"""Strings from Python lists, NumPy 'S' / 'U' arrays and Arrow (PyCapsule interface), and substr's
results back as bytes lists, 'S' arrays and Arrow."""

import numpy as np
import pytest

import tensorbuf as tb
from arrow_fake import ArrowStrings, read_arrow


def test_lists_of_str_and_bytes_with_shape():
    s = tb.StringTensor([["héllo", b"w\x00rld"], ["", "x"]])
    assert s.shape == (2, 2) and s.size == 4
    assert s.to_list() == [["héllo".encode(), b"w\x00rld"], [b"", b"x"]]
    assert tb.StringTensor("one").to_list() == b"one" and tb.StringTensor("one").shape == ()
    with pytest.raises(tb.InvalidArgumentError, match="not str or bytes"):
        tb.StringTensor(["a", 3])
    with pytest.raises(tb.InvalidArgumentError, match="ragged"):
        tb.StringTensor([["a"], ["b", "c"]])


def test_numpy_s_u_and_object_arrays():
    s = np.array([b"ab", b"c", b""], dtype="S4")
    assert tb.StringTensor(s).to_list() == s.tolist() == [b"ab", b"c", b""]
    u = np.array([["héllo", "日本"], ["x", ""]])
    assert tb.StringTensor(u).to_list() == [[w.encode() for w in row] for row in u.tolist()]
    o = np.array(["a", b"b"], dtype=object)
    assert tb.StringTensor(o).to_list() == [b"a", b"b"]
    with pytest.raises(tb.InvalidArgumentError, match="holds no strings"):
        tb.StringTensor(np.zeros(2, np.float32))


def test_substr_results_as_bytes_s_arrays_and_arrow():
    out = tb.substr(np.array([b"hello", b"world"]), 1, 3)
    assert out.to_list() == [b"ell", b"orl"]
    assert out.to_numpy().dtype == np.dtype("S3") and out.to_numpy().tolist() == [b"ell", b"orl"]
    fmt, strings, _ = read_arrow(out)
    assert (fmt, strings) == ("Z", [b"ell", b"orl"])
    fmt, strings, _ = read_arrow(out, requested_format="U")
    assert (fmt, strings) == ("U", [b"ell", b"orl"])
    with pytest.raises(ValueError):
        read_arrow(out, requested_format="i")


def test_arrow_large_string_is_taken_without_a_copy_and_released_once():
    producer = ArrowStrings(["héllo", "wörld", "!"], format="U")
    strings = tb.StringTensor(producer)
    assert strings.to_list() == ["héllo".encode(), "wörld".encode(), b"!"]
    _, _, chars_address = read_arrow(strings)  # our export points at the producer's chars
    assert chars_address == producer.chars.ctypes.data
    assert producer.releases == 0
    out = tb.substr(strings, 1, 2, unit="utf8_char")
    assert out.to_list() == ["él".encode(), "ör".encode(), b""]
    del strings
    assert producer.releases == 1
    assert out.to_list()[0] == "él".encode()  # results own their memory


@pytest.mark.parametrize("format", ["u", "z", "Z"])
def test_arrow_other_string_types_and_slices(format):
    producer = ArrowStrings(["skip", "abc", "", "de"], format=format, offset=1)
    strings = tb.StringTensor(producer)
    assert strings.to_list() == [b"abc", b"", b"de"]
    assert tb.substr(producer, 0, 1).to_list() == [b"a", b"", b"d"]
    del strings
    assert producer.releases == 2


def test_arrow_nulls_and_non_string_types_are_rejected_and_released():
    nulls = ArrowStrings(["a", "b"], nulls=[1])
    with pytest.raises(tb.InvalidArgumentError, match="1 null"):
        tb.StringTensor(nulls)
    assert nulls.releases == 1
    ints = ArrowStrings(["a"], format="i")
    with pytest.raises(tb.InvalidArgumentError, match="not a string"):
        tb.StringTensor(ints)


def test_substr_broadcasting_and_dtypes():
    words = ["hello", "world"]
    assert tb.substr(words, [0, 1], [2, 2]).to_list() == [b"he", b"or"]
    # Python values take the other argument's dtype (pos and len share one).
    assert tb.substr(words, np.array([0, 1], np.int32), [2, 1]).to_list() == [b"he", b"o"]
    assert tb.substr(words, [1, 1], np.array([1, 2], np.int32)).to_list() == [b"e", b"or"]
    assert tb.substr([["ab"], ["cd"]], [[0, 1]], [[1, 1]]).to_list() == [[b"a", b"b"], [b"c", b"d"]]
    with pytest.raises(tb.InvalidArgumentError, match="same shape"):
        tb.substr(words, [0, 1], 2)
    with pytest.raises(tb.InvalidArgumentError, match="pos 9 out of range"):
        tb.substr(words, 9, 1, out_of_bounds="error")
    assert tb.substr(words, 9, 1, out_of_bounds="drop").to_list() == [b"", b""]
    with pytest.raises(ValueError, match="unit"):
        tb.substr(words, 0, 1, unit="char")
