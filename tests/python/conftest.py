"""Shared fixtures of the Python package's tests (run by ctest as python.pytest)."""

import ctypes
import os
import pathlib

import numpy as np
import pytest

import tensorbuf as tb

# scripts/check_wheel.sh runs the suite against the installed wheel: the package must be that one.
_EXPECTED_FROM = os.environ.get("TENSORBUF_EXPECT_TENSORBUF_FROM")
if _EXPECTED_FROM and not pathlib.Path(tb.__file__).resolve().is_relative_to(
        pathlib.Path(_EXPECTED_FROM).resolve()):
    raise ImportError(f"tensorbuf imported from {tb.__file__}, not from {_EXPECTED_FROM}")

DATA_DIR = pathlib.Path(
    os.environ.get("TENSORBUF_TEST_DATA_DIR", pathlib.Path(__file__).resolve().parents[1] / "data"))


@pytest.fixture
def data_dir():
    return DATA_DIR


def address(array):
    """The data pointer of a NumPy array or torch tensor."""
    if isinstance(array, np.ndarray):
        return array.ctypes.data
    return array.data_ptr()


# ctypes views of the C structs the tests read and build (DLPack 1.0, Arrow's C data interface).
class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                            ("deleter", ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor)))]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    pass


DLManagedTensorVersioned._fields_ = [
    ("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p),
    ("deleter", ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensorVersioned))),
    ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]

DLPACK_FLAG_READ_ONLY = 1

_api = ctypes.pythonapi
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_api.PyCapsule_GetName.restype = ctypes.c_char_p
_api.PyCapsule_GetName.argtypes = [ctypes.py_object]


def capsule_name(capsule):
    return _api.PyCapsule_GetName(capsule).decode()


def capsule_struct(capsule, struct):
    """The struct a capsule points to (its name is the capsule's own)."""
    name = _api.PyCapsule_GetName(capsule)
    return ctypes.cast(_api.PyCapsule_GetPointer(capsule, name), ctypes.POINTER(struct)).contents


def consume_capsule(capsule, used_name):
    _api.PyCapsule_SetName(capsule, used_name.encode())


def new_capsule(pointer, name):
    # The name must outlive the capsule: keep the bytes object in a module-level cache.
    encoded = _NAMES.setdefault(name, ctypes.create_string_buffer(name.encode()))
    return _api.PyCapsule_New(pointer, ctypes.cast(encoded, ctypes.c_char_p), None)


_NAMES = {}
