"""A small Arrow PyCapsule producer and consumer written with ctypes (pyarrow is not in Debian):
string / binary arrays with int32 or int64 offsets, an optional slice offset and nulls."""

import ctypes

import numpy as np

from conftest import new_capsule

RELEASE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class ArrowSchema(ctypes.Structure):
    _fields_ = [("format", ctypes.c_char_p), ("name", ctypes.c_char_p),
                ("metadata", ctypes.c_char_p), ("flags", ctypes.c_int64),
                ("n_children", ctypes.c_int64), ("children", ctypes.c_void_p),
                ("dictionary", ctypes.c_void_p), ("release", RELEASE),
                ("private_data", ctypes.c_void_p)]


class ArrowArray(ctypes.Structure):
    _fields_ = [("length", ctypes.c_int64), ("null_count", ctypes.c_int64),
                ("offset", ctypes.c_int64), ("n_buffers", ctypes.c_int64),
                ("n_children", ctypes.c_int64), ("buffers", ctypes.POINTER(ctypes.c_void_p)),
                ("children", ctypes.c_void_p), ("dictionary", ctypes.c_void_p),
                ("release", RELEASE), ("private_data", ctypes.c_void_p)]


def _clear_release(pointer, struct):
    ctypes.memset(pointer + struct.release.offset, 0, ctypes.sizeof(ctypes.c_void_p))


class ArrowStrings:
    """format: 'U' large_string, 'Z' large_binary, 'u' string, 'z' binary. `offset` slices off
    that many leading strings (Arrow's array offset); `nulls`: indices marked null."""

    def __init__(self, values, format="U", offset=0, nulls=()):
        encoded = [v.encode() if isinstance(v, str) else v for v in values]
        self.format, self.offset, self.length = format, offset, len(values) - offset
        ends = np.cumsum([0] + [len(v) for v in encoded])
        self.offsets = ends.astype(np.int64 if format in "UZ" else np.int32)
        self.chars = np.frombuffer(b"".join(encoded) or b"\0", np.uint8).copy()
        self.validity = None
        if nulls:
            bits = np.ones(len(values), bool)
            bits[list(nulls)] = False
            self.validity = np.packbits(bits, bitorder="little")
        self.null_count = len(nulls)
        self.releases = 0
        self._keep = []

    def _release_array(self, pointer):
        self.releases += 1
        _clear_release(pointer, ArrowArray)

    def __arrow_c_array__(self, requested_schema=None):
        schema = ArrowSchema()
        schema.format = self.format.encode()
        schema.name = b""
        schema_release = RELEASE(lambda p: _clear_release(p, ArrowSchema))
        schema.release = schema_release
        array = ArrowArray()
        array.length, array.null_count, array.offset = self.length, self.null_count, self.offset
        buffers = (ctypes.c_void_p * 3)(
            None if self.validity is None else self.validity.ctypes.data,
            self.offsets.ctypes.data, self.chars.ctypes.data)
        array.n_buffers, array.buffers = 3, buffers
        array_release = RELEASE(self._release_array)
        array.release = array_release
        self._keep += [schema, array, buffers, schema_release, array_release]
        return (new_capsule(ctypes.addressof(schema), "arrow_schema"),
                new_capsule(ctypes.addressof(array), "arrow_array"))


def read_arrow(producer, requested_format=None):
    """Consumes producer.__arrow_c_array__(): (format, strings, chars address), then releases."""
    requested = None
    if requested_format is not None:
        wanted = ArrowSchema()
        wanted.format = requested_format.encode()
        requested = new_capsule(ctypes.addressof(wanted), "arrow_schema")
    schema_capsule, array_capsule = producer.__arrow_c_array__(requested)
    from conftest import capsule_struct
    schema = capsule_struct(schema_capsule, ArrowSchema)
    array = capsule_struct(array_capsule, ArrowArray)
    fmt = schema.format.decode()
    offset_type = np.int64 if fmt in "UZ" else np.int32
    n = array.length
    offsets = np.ctypeslib.as_array(ctypes.cast(array.buffers[1], ctypes.POINTER(
        ctypes.c_int64 if offset_type is np.int64 else ctypes.c_int32)), shape=(n + 1,)).copy()
    total = int(offsets[-1])
    chars = ctypes.string_at(array.buffers[2], total) if total else b""
    strings = [chars[offsets[i]:offsets[i + 1]] for i in range(n)]
    chars_address = array.buffers[2]
    array.release(ctypes.addressof(array))
    schema.release(ctypes.addressof(schema))
    assert not array.release and not schema.release
    return fmt, strings, chars_address
