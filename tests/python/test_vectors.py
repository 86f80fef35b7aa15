"""The spec's vector files (tests/data, generated with NumPy / Python) through the Python API."""

import numpy as np
import pytest

import tensorbuf as tb


def read_blocks(path):
    """The 'case ... end' blocks of a vector file, each a list of (tag, rest-of-line) pairs."""
    blocks, block = [], None
    for line in path.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        tag, _, rest = line.partition(" ")
        if tag == "case":
            block = [("case", rest)]
        elif tag == "end":
            blocks.append(block)
        else:
            block.append((tag, rest))
    return blocks


def values(text, dtype):
    # Floats are written as the repr of the exact value; bool as 0/1.
    numbers = np.array([float(v) for v in text.split()], np.float64)
    return numbers.astype(dtype) if dtype != np.bool_ else numbers != 0


def shaped(text, dtype):
    """'[2,3] v v v ...' (an empty shape '[]' is a scalar)."""
    shape_text, _, rest = text.partition(" ")
    shape = tuple(int(d) for d in shape_text.strip("[]").split(",") if d)
    return values(rest, dtype).reshape(shape)


def test_scatter_vectors(data_dir):
    blocks = read_blocks(data_dir / "scatter_nd" / "vectors.txt")
    assert len(blocks) > 80
    for block in blocks:
        f = dict(block)
        dtype = np.dtype(f["dtype"]) if f["dtype"] != "bool" else np.bool_
        shape = lambda key: tuple(int(d) for d in f[key].split())  # noqa: E731
        tensor = values(f["tensor"], dtype).reshape(shape("tensor_shape"))
        indices = values(f["indices"], np.dtype(f["index_dtype"])).reshape(shape("indices_shape"))
        updates = values(f["updates"], dtype).reshape(shape("updates_shape"))
        expected = values(f["expected"], dtype).reshape(tensor.shape)
        # Every combine the file has (the op table's, mul included) must be bound.
        out = np.asarray(getattr(tb, f"tensor_scatter_nd_{f['op']}")(tensor, indices, updates))
        assert out.tobytes() == expected.tobytes(), f["case"]
        in_place = tensor.copy()
        getattr(tb, f"tensor_scatter_nd_{f['op']}_in_place")(in_place, indices, updates)
        assert in_place.tobytes() == expected.tobytes(), f["case"]


def test_boolean_mask_update_vectors(data_dir):
    blocks = read_blocks(data_dir / "boolean_mask_update" / "vectors.txt")
    assert len(blocks) > 200
    for block in blocks:
        f = dict(block)
        dtype = np.dtype(f["dtype"]) if f["dtype"] != "bool" else np.bool_
        tensor, mask = shaped(f["tensor"], dtype), shaped(f["mask"], np.bool_)
        updates = shaped(f["updates"], dtype)
        options = dict(axis=int(f["axis"]), broadcast=f["broadcast"] == "1")
        if f["expected"] == "error":  # NumPy raised: so must we, writing nothing
            before = tensor.copy()
            with pytest.raises(tb.InvalidArgumentError):
                tb.boolean_mask_update_in_place(tensor, mask, updates, **options)
            assert tensor.tobytes() == before.tobytes(), f["case"]
            continue
        expected = shaped(f["expected"], dtype)
        out = tb.boolean_mask_update(tensor, mask, updates, **options)
        assert np.asarray(out).tobytes() == expected.tobytes(), f["case"]
        tb.boolean_mask_update_in_place(tensor, mask, updates, **options)
        assert tensor.tobytes() == expected.tobytes(), f["case"]


def unhex(word):
    return b"" if word == "-" else bytes.fromhex(word)


def test_substr_vectors(data_dir):
    blocks = read_blocks(data_dir / "substr" / "substr_vectors.txt")
    assert len(blocks) > 300
    for block in blocks:
        f = dict(block)
        name, unit, index_dtype = f["case"].split()
        unit = "utf8_char" if unit == "utf8" else "byte"

        def strings(key):
            shape_text, _, rest = f[key].partition(" ")
            shape = tuple(int(d) for d in shape_text.strip("[]").split(",") if d)
            return np.array([unhex(w) for w in rest.split()], dtype=object).reshape(shape).tolist()

        pos, length = (shaped(f[k], np.dtype(index_dtype)) for k in ("pos", "len"))
        out = tb.substr(strings("input"), pos, length, unit=unit, out_of_bounds="drop")
        assert out.to_list() == strings("out"), name
        if "error" not in f:
            assert tb.substr(strings("input"), pos, length, unit=unit, out_of_bounds="error").to_list() == strings("out")
            continue
        message = f["error"].partition(" ")[2]
        with pytest.raises(tb.InvalidArgumentError) as raised:
            tb.substr(strings("input"), pos, length, unit=unit, out_of_bounds="error")
        assert str(raised.value) == message, name
