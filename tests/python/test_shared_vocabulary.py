"""The words and error classes Python takes from src/core (spellings.hpp, error_classes.hpp):
the same words and messages as the command line, the same classes as before the table."""
import numpy as np
import pytest

import tensorbuf as tb


def test_each_error_class_derives_from_error_and_its_builtin_only():
    expected = {
        "InvalidArgumentError": ValueError,
        "OutOfRangeError": IndexError,
        "UnavailableError": RuntimeError,
        "ResourceExhaustedError": MemoryError,
        "InternalError": RuntimeError,
    }
    assert tb.Error.__bases__ == (Exception,)
    for name, builtin in expected.items():
        cls = getattr(tb, name)
        assert cls.__name__ == name
        assert cls.__module__ == "tensorbuf"
        assert cls.__bases__ == (tb.Error, builtin), name
        assert cls.__doc__


def test_a_bad_word_is_named_with_the_accepted_words():
    with pytest.raises(tb.InvalidArgumentError) as raised:
        tb.tensor_scatter_nd_add([1.0], [[0]], [1.0], out_of_bounds="ignore")
    assert str(raised.value) == "out_of_bounds must be default, error or drop, not 'ignore'"
    with pytest.raises(tb.InvalidArgumentError) as raised:
        tb.substr(np.array([b"abc"]), 0, 1, unit="rune")
    assert str(raised.value) == "unit must be byte or utf8_char, not 'rune'"
    with pytest.raises(tb.InvalidArgumentError) as raised:
        tb.tensor_scatter_nd_add([1.0], [[0]], [1.0], out_type="list")
    assert str(raised.value) == "out_type must be same, tensorbuf, numpy or torch, not 'list'"
    for device in ("gpu", "cuda:", "cuda:1x", "CPU"):
        with pytest.raises(tb.InvalidArgumentError) as raised:
            tb.tensor_scatter_nd_add([1.0], [[0]], [1.0], device=device)
        assert str(raised.value) == f"device must be cpu or cuda[:N], not '{device}'"


def test_the_words_parse():
    for policy in ("default", "error", "drop"):
        out = tb.tensor_scatter_nd_add([1.0, 2.0], [[1]], [3.0], out_of_bounds=policy, device="cpu")
        assert np.asarray(out).tolist() == [1.0, 5.0]
    for unit, expected in (("byte", [b"\xc3"]), ("utf8_char", ["é".encode()])):
        out = tb.substr(np.array(["éa".encode()]), 0, 1, unit=unit)
        assert out.to_list() == expected
    for reduction, expected in (("none", [3.0, 2.0]), ("add", [4.0, 2.0]), ("mul", [3.0, 2.0]),
                                ("min", [1.0, 2.0]), ("max", [3.0, 2.0])):
        out = tb.scatter_elements([1.0, 2.0], [0], [3.0], reduction=reduction)
        assert np.asarray(out).tolist() == expected


def test_the_extension_lists_the_words_the_stubs_type():
    # python/write_stubs.py writes Literal[...] from these: the library's words, not a copy.
    assert tb._tensorbuf._spellings == {
        "out_of_bounds": ("default", "error", "drop"),
        "unit": ("byte", "utf8_char"),
        "reduction": ("none", "add", "mul", "min", "max"),
        "out_type": ("same", "tensorbuf", "numpy", "torch"),
    }
