"""Memory of an immutable exporter is never written: `read_only`,
`__dlpack__` and `np.asarray` agree on every buffer."""

import numpy as np
import pytest

import tensorbuf as tb
from conftest import DLPACK_FLAG_READ_ONLY, DLManagedTensorVersioned, capsule_struct


def views_say(buffer):
    """(read_only, the NumPy view is read-only, the versioned export is flagged read-only, the
    legacy export is refused): what each surface says about writing the buffer's memory."""
    numpy_read_only = not np.asarray(buffer).flags.writeable
    versioned = buffer.__dlpack__(max_version=(1, 0))
    flagged = bool(capsule_struct(versioned, DLManagedTensorVersioned).flags & DLPACK_FLAG_READ_ONLY)
    del versioned
    try:
        buffer.__dlpack__()
        legacy_refused = False
    except BufferError:
        legacy_refused = True
    return buffer.read_only, numpy_read_only, flagged, legacy_refused


def loaded(data):
    b = tb.TensorBuffer.create_fixed_size((4,), "float32")
    b.load_buffer(data)
    return b


def read_only_numpy():
    a = np.arange(4, dtype=np.float32)
    a.flags.writeable = False
    return a


@pytest.mark.parametrize("make, read_only", [
    (lambda: tb.TensorBuffer.create_fixed_size((4,), "float32"), False),
    (lambda: loaded(np.arange(4, dtype=np.float32).tobytes()), True),
    (lambda: loaded(bytearray(16)), True),  # referenced caller memory, even a writable one
    (lambda: tb.asarray(np.arange(4, dtype=np.float32)), False),
    (lambda: tb.asarray(read_only_numpy()), True),
    (lambda: tb.asarray(np.arange(4, dtype=np.float32).tobytes()), True),
])
def test_read_only_dlpack_and_numpy_agree(make, read_only):
    assert views_say(make()) == (read_only,) * 4


def test_load_buffer_of_bytes_is_never_written_and_copies_on_its_first_write():
    data = np.arange(4, dtype=np.float32).tobytes()
    before = bytearray(data)
    b = tb.TensorBuffer.create_fixed_size((4,), "float32")
    b.load_buffer(data)
    assert b.copy_on_write and "copy_on_write, read_only" in repr(b)
    view = np.asarray(b)
    with pytest.raises(ValueError, match="read-only"):
        view[0] = 99
    # While a view of the shared bytes lives, the copy cannot happen (the view pins them).
    with pytest.raises(tb.InvalidArgumentError, match="DLPack export"):
        tb.tensor_scatter_nd_add_in_place(b, [[0]], [1.0])
    del view
    tb.tensor_scatter_nd_add_in_place(b, [[0]], [1.0])  # the buffer itself is writable: copies
    assert bytearray(data) == before
    assert views_say(b) == (False,) * 4 and not b.copy_on_write
    written = np.asarray(b)
    written[1] = 7
    assert b.get_float_array().tolist() == [1, 7, 2, 3]
    assert bytearray(data) == before


def test_a_borrow_of_a_read_only_exporter_refuses_in_place_ops():
    for source in (read_only_numpy(), np.arange(4, dtype=np.float32).tobytes()):
        b = tb.asarray(source)
        before = bytes(memoryview(source))
        with pytest.raises(ValueError, match="read-only"):
            tb.tensor_scatter_nd_add_in_place(b, [[0]], [1.0])
        with pytest.raises(ValueError, match="read-only"):
            tb.boolean_mask_update_in_place(b, [True] * b.flat_size, 1.0)
        assert bytes(memoryview(source)) == before
