"""tb.StringTensor as a Python sequence: len(), indexing (negative too, IndexError), iteration,
and to_list(decode=True) giving str."""

import pytest

import tensorbuf as tb


def test_len_index_and_iterate_a_vector():
    s = tb.StringTensor(["héllo", b"w\x00rld", ""])
    assert len(s) == 3
    assert s[0] == "héllo".encode() and s[1] == b"w\x00rld" and s[2] == b""
    assert s[-1] == b"" and s[-3] == "héllo".encode()
    assert list(s) == ["héllo".encode(), b"w\x00rld", b""]
    for bad in (3, -4, 1 << 40):
        with pytest.raises(IndexError):
            s[bad]


def test_rows_of_a_matrix_are_string_tensors():
    s = tb.StringTensor([["a", "bc"], ["", "déf"], ["g", "h"]])
    row = s[-2]
    assert isinstance(row, tb.StringTensor) and row.shape == (2,)
    assert row.to_list(decode=True) == ["", "déf"]
    assert [r.to_list() for r in s] == [[b"a", b"bc"], [b"", "déf".encode()], [b"g", b"h"]]
    assert s.to_list(decode=True) == [["a", "bc"], ["", "déf"], ["g", "h"]]


def test_scalar_is_neither_sized_nor_indexable():
    s = tb.StringTensor("one")
    assert s.to_list(decode=True) == "one"
    with pytest.raises(TypeError):
        len(s)
    with pytest.raises(IndexError):
        s[0]
    with pytest.raises(TypeError):
        iter(s)


def test_decode_refuses_bytes_that_are_not_utf8():
    s = tb.StringTensor([b"ok", b"\xff"])
    assert s.to_list() == [b"ok", b"\xff"]
    with pytest.raises(UnicodeDecodeError):
        s.to_list(decode=True)


def test_empty_vector():
    s = tb.StringTensor([])
    assert len(s) == 0 and list(s) == [] and s.to_list(decode=True) == []
