"""DLPack both ways: legacy consumers and producers (NumPy 1.24, torch 1.13) and versioned ones
(hand-made here with ctypes, speaking only DLPack 1.x)."""

import ctypes
import sys

import numpy as np
import pytest
import torch

import tensorbuf as tb
from conftest import (DLPACK_FLAG_READ_ONLY, DLManagedTensor, DLManagedTensorVersioned, address,
                      capsule_name, capsule_struct, consume_capsule, new_capsule)

DLPACK_FLAG_IS_COPIED = 2


class HandmadeProducer:
    """A producer over a NumPy array whose capsules are built by hand. versioned=True: it speaks
    only DLPack 1.x (no max_version: BufferError); False: only the legacy protocol (no
    max_version keyword at all). Records the stream and max_version it is asked for, and how
    often its deleter ran."""

    def __init__(self, array, versioned, read_only=False, major=1):
        self.array, self.versioned, self.read_only, self.major = array, versioned, read_only, major
        self.asked, self.deleted, self._keep = [], 0, []

    def __dlpack_device__(self):
        return (1, 0)

    def __dlpack__(self, *, stream=None, **kwargs):
        if kwargs and not self.versioned:
            raise TypeError("__dlpack__() got an unexpected keyword argument 'max_version'")
        max_version = kwargs.get("max_version")
        self.asked.append((stream, max_version))
        if self.versioned and (max_version is None or max_version[0] < 1):
            raise BufferError("this producer speaks only DLPack 1.x")
        struct = DLManagedTensorVersioned if self.versioned else DLManagedTensor
        managed = struct()
        shape = (ctypes.c_int64 * self.array.ndim)(*self.array.shape)
        deleter = dict(struct._fields_)["deleter"](self._deleter)
        tensor = managed.dl_tensor
        tensor.data = self.array.ctypes.data
        tensor.device.device_type, tensor.device.device_id = 1, 0
        tensor.ndim = self.array.ndim
        tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes = 2, 32, 1  # float32
        tensor.shape = shape
        managed.deleter = deleter
        if self.versioned:
            managed.version.major, managed.version.minor = self.major, 0
            managed.flags = DLPACK_FLAG_READ_ONLY if self.read_only else 0
        self._keep += [managed, shape, deleter]
        name = "dltensor_versioned" if self.versioned else "dltensor"
        return new_capsule(ctypes.addressof(managed), name)

    def _deleter(self, _):
        self.deleted += 1


def test_legacy_consumers_take_results_without_a_copy():
    result = tb.tensor_scatter_nd_add(np.zeros((2, 3), np.float32), [[1]], [[1.0, 2.0, 3.0]],
                                      out_type="tensorbuf")
    as_numpy = np.from_dlpack(result)
    as_torch = torch.from_dlpack(result)
    assert address(as_numpy) == address(as_torch) == address(np.asarray(result))
    as_torch[0, 0] = 5.0
    assert as_numpy[0, 0] == 5.0 and result.get_float_value(0) == 5.0
    assert as_numpy.tolist() == [[5, 0, 0], [1, 2, 3]]


def test_versioned_export_read_by_a_v1_consumer():
    source = np.arange(6, dtype=np.int16).reshape(2, 3)
    buffer = tb.asarray(source)
    capsule = buffer.__dlpack__(max_version=(1, 0))
    assert capsule_name(capsule) == "dltensor_versioned"
    managed = capsule_struct(capsule, DLManagedTensorVersioned)
    tensor = managed.dl_tensor
    assert (managed.version.major, managed.flags) == (1, 0)
    assert tensor.data + tensor.byte_offset == address(source)  # the caller's memory itself
    assert (tensor.ndim, tensor.shape[0], tensor.shape[1]) == (2, 2, 3)
    assert (tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes) == (0, 16, 1)
    consume_capsule(capsule, "used_dltensor_versioned")
    managed.deleter(ctypes.pointer(managed))  # the consumer is done


def test_read_only_and_bool_exports():
    frozen = np.zeros(3, np.float32)
    frozen.flags.writeable = False
    buffer = tb.asarray(frozen)
    assert buffer.read_only
    with pytest.raises(BufferError, match="read-only"):
        buffer.__dlpack__()
    capsule = buffer.__dlpack__(max_version=(1, 0))
    assert capsule_struct(capsule, DLManagedTensorVersioned).flags & DLPACK_FLAG_READ_ONLY
    assert not np.asarray(buffer).flags.writeable
    mask = tb.asarray([True, False])
    with pytest.raises(BufferError):
        mask.__dlpack__()
    assert capsule_struct(mask.__dlpack__(max_version=(1, 0)), DLManagedTensorVersioned).dl_tensor.dtype.code == 6


def test_dl_device_and_copy():
    b = tb.asarray(np.arange(3, dtype=np.float32))
    same = b.__dlpack__(max_version=(1, 0), dl_device=(1, 0))
    assert capsule_struct(same, DLManagedTensorVersioned).dl_tensor.data == address(np.asarray(b))
    copied = capsule_struct(b.__dlpack__(max_version=(1, 0), copy=True), DLManagedTensorVersioned)
    assert copied.flags & DLPACK_FLAG_IS_COPIED and copied.dl_tensor.data != address(np.asarray(b))
    with pytest.raises(BufferError):
        b.__dlpack__(dl_device=(2, 0), copy=False)


def test_import_from_a_v1_only_producer_is_zero_copy_and_deletes_once():
    array = np.zeros(4, np.float32)
    producer = HandmadeProducer(array, versioned=True)
    tb.tensor_scatter_nd_add_in_place(producer, [[2]], [3.0])
    assert array.tolist() == [0, 0, 3, 0]
    assert producer.asked == [(None, (1, 0))]  # CPU: no stream; the versioned form asked first
    assert producer.deleted == 1
    imported = tb.from_dlpack(producer)
    assert imported.is_borrowed and np.asarray(imported).ctypes.data == address(array)
    del imported
    assert producer.deleted == 2


def test_import_from_a_legacy_only_producer_falls_back():
    array = np.ones(2, np.float32)
    producer = HandmadeProducer(array, versioned=False)
    tb.tensor_scatter_nd_sub_in_place(producer, [[0]], [1.0])
    assert array.tolist() == [0, 1]
    assert producer.asked == [(None, None)] and producer.deleted == 1


def test_read_only_and_foreign_major_version_imports():
    array = np.zeros(2, np.float32)
    frozen = HandmadeProducer(array, versioned=True, read_only=True)
    with pytest.raises(ValueError):
        tb.tensor_scatter_nd_add_in_place(frozen, [[0]], [1.0])
    assert array.tolist() == [0, 0] and frozen.deleted == 1
    assert np.asarray(tb.tensor_scatter_nd_add(frozen, [[0]], [1.0])).tolist() == [1, 0]
    future = HandmadeProducer(array, versioned=True, major=2)
    with pytest.raises(tb.InvalidArgumentError, match="major version 2"):
        tb.from_dlpack(future)
    assert future.deleted == 1


def test_a_capsule_is_consumed_once():
    capsule = tb.asarray(np.zeros(2, np.float32)).__dlpack__()
    first = tb.from_dlpack(capsule)
    assert capsule_name(capsule) == "used_dltensor"
    with pytest.raises(tb.InvalidArgumentError, match="already consumed"):
        tb.from_dlpack(capsule)
    with pytest.raises(Exception):
        torch.from_dlpack(capsule)
    assert first.shape == (2,)


def test_an_unconsumed_capsule_releases_the_export():
    d = tb.TensorBuffer.create_dynamic("float32")
    d.load_array([1.0, 2.0], (2,))
    capsule = d.__dlpack__()
    with pytest.raises(tb.InvalidArgumentError):
        d.load_array([1.0, 2.0, 3.0], (3,))
    del capsule
    d.load_array([1.0, 2.0, 3.0], (3,))


def test_refcounts_return_to_baseline():
    array = np.zeros((8, 2), np.float32)
    tensor = torch.zeros(8, 2)
    baseline = (sys.getrefcount(array), sys.getrefcount(tensor))
    for _ in range(100):
        tb.tensor_scatter_nd_add_in_place(array, [[1]], [[1.0, 1.0]])
        tb.tensor_scatter_nd_add_in_place(tensor, [[1]], [[1.0, 1.0]])
        exported = np.from_dlpack(tb.asarray(array))
        through_torch = torch.from_dlpack(tb.asarray(tensor))
        del exported, through_torch
    assert (sys.getrefcount(array), sys.getrefcount(tensor)) == baseline
    assert array[1].tolist() == [100, 100] and tensor[1].tolist() == [100, 100]


def test_torch_bool_masks_come_as_their_uint8_view():
    mask = torch.tensor([True, False, True])
    as_buffer = tb.asarray(mask)
    assert as_buffer.dtype == "bool" and as_buffer.get_int_array().tolist() == [1, 0, 1]
    assert np.asarray(tb.boolean_mask_update(np.zeros(3, np.float32), mask, 2.0)).tolist() == [2, 0, 2]


def test_asarray_copy_rules():
    array = np.arange(4, dtype=np.int32)
    assert np.asarray(tb.asarray(array)).ctypes.data == address(array)
    copy = tb.asarray(array, copy=True)
    assert not copy.is_borrowed and copy.get_int_array().tolist() == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="copy=False"):
        tb.asarray([1, 2], copy=False)
    same = tb.asarray(copy)
    assert same is copy
    assert tb.asarray([[1, 2], [3, 4]]).dtype == "int64"
    assert tb.asarray([1.5, 2]).dtype == "float64"
    assert tb.asarray(True).shape == ()
    assert tb.asarray([]).dtype == "float64"
    with pytest.raises(tb.InvalidArgumentError, match="ragged"):
        tb.asarray([[1, 2], [3]])
