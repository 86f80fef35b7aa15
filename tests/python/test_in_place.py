"""_in_place ops write into the caller's own object: torch tensors, NumPy arrays, tb buffers."""

import threading

import numpy as np
import pytest
import torch

import tensorbuf as tb
from conftest import address

SCATTER_IN_PLACE = [tb.tensor_scatter_nd_sub_in_place, tb.tensor_scatter_nd_add_in_place,
                    tb.tensor_scatter_nd_update_in_place, tb.tensor_scatter_nd_min_in_place,
                    tb.tensor_scatter_nd_max_in_place]


def test_numpy_in_place_is_the_same_memory_without_a_copy():
    table = np.arange(12, dtype=np.float32).reshape(4, 3)
    pointer = address(table)
    tb.reset_stats()
    tb.tensor_scatter_nd_add_in_place(table, np.array([[1], [3]]), np.ones((2, 3), np.float32))
    assert address(table) == pointer
    assert table.tolist() == [[0, 1, 2], [4, 5, 6], [6, 7, 8], [10, 11, 12]]
    assert tb.stats()["host_allocations"] == 0  # nothing was copied into tensorbuf memory


def test_torch_in_place_is_the_same_memory():
    table = torch.zeros(4, 3)
    pointer = table.data_ptr()
    tb.tensor_scatter_nd_sub_in_place(table, torch.tensor([[2]]), torch.tensor([[1.0, 2.0, 3.0]]))
    assert table.data_ptr() == pointer
    assert table[2].tolist() == [-1, -2, -3] and table.sum().item() == -6


@pytest.mark.parametrize("op", SCATTER_IN_PLACE)
def test_every_scatter_in_place_matches_its_out_of_place_form(op):
    rng = np.random.default_rng(7)
    table = rng.standard_normal((6, 2)).astype(np.float32)
    indices = rng.integers(0, 6, size=(5, 1))
    updates = rng.standard_normal((5, 2)).astype(np.float32)
    out_of_place = getattr(tb, op.__name__.replace("_in_place", ""))(table, indices, updates)
    op(table, indices, updates)
    assert np.array_equal(table, np.asarray(out_of_place))


def test_mask_update_in_place_on_torch_with_a_bool_mask():
    t = torch.arange(6, dtype=torch.float32).reshape(3, 2)
    pointer = t.data_ptr()
    tb.boolean_mask_update_in_place(t, torch.tensor([True, False, True]), torch.tensor([9.0, 8.0]))
    assert t.data_ptr() == pointer
    assert t.tolist() == [[9, 8], [2, 3], [9, 8]]
    tb.boolean_mask_update_in_place(t, torch.tensor([[False, True]] * 3), -1.0)
    assert t.tolist() == [[9, -1], [2, -1], [9, -1]]


def test_mask_axis_and_broadcast_in_place_on_numpy():
    a = np.zeros((2, 3, 2), np.int32)
    tb.boolean_mask_update_in_place(a, np.array([True, False, True]), np.array([[1, 2]], np.int32), axis=1)
    expected = np.zeros((2, 3, 2), np.int32)
    expected[:, np.array([True, False, True])] = np.array([[1, 2]])
    assert np.array_equal(a, expected)


def test_read_only_numpy_is_rejected_with_value_error_and_unchanged():
    a = np.arange(4, dtype=np.float32)
    a.flags.writeable = False
    before = a.copy()
    with pytest.raises(ValueError, match="read-only"):
        tb.tensor_scatter_nd_add_in_place(a, [[0]], [1.0])
    with pytest.raises(tb.InvalidArgumentError):
        tb.boolean_mask_update_in_place(a, [True] * 4, 0.0)
    assert np.array_equal(a, before)
    # Out of place reads it freely.
    assert np.asarray(tb.tensor_scatter_nd_add(a, [[0]], [1.0])).tolist() == [1, 1, 2, 3]


def test_what_in_place_cannot_write_is_rejected():
    strided = np.zeros((4, 4), np.float32)[:, 1]
    with pytest.raises(ValueError, match="C-contiguous"):
        tb.tensor_scatter_nd_add_in_place(strided, [[0]], [1.0])
    with pytest.raises(ValueError, match="in-place"):
        tb.tensor_scatter_nd_add_in_place([0.0, 0.0], [[0]], [1.0])
    with pytest.raises(TypeError):
        tb.tensor_scatter_nd_add_in_place(object(), [[0]], [1.0])
    transposed = torch.zeros(3, 2).T
    with pytest.raises(ValueError, match="C-contiguous"):
        tb.tensor_scatter_nd_add_in_place(transposed, [[0]], [[1.0, 1.0, 1.0]])
    # Out of place, strided arrays and tensors are copied and read.
    assert np.asarray(tb.tensor_scatter_nd_add(strided, [[1]], [2.0])).tolist() == [0, 2, 0, 0]
    assert np.asarray(tb.tensor_scatter_nd_add(transposed, [[1]], [[1.0, 2.0, 3.0]])).tolist() == [[0, 0, 0], [1, 2, 3]]


def test_error_in_place_writes_nothing():
    a = np.zeros(4, np.float32)
    with pytest.raises(tb.InvalidArgumentError, match="index"):
        tb.tensor_scatter_nd_add_in_place(a, [[1], [9]], [1.0, 1.0])
    assert a.tolist() == [0, 0, 0, 0]
    tb.tensor_scatter_nd_add_in_place(a, [[1], [9]], [1.0, 1.0], out_of_bounds="drop")
    assert a.tolist() == [0, 1, 0, 0]


def test_tensorbuffer_in_place_and_its_numpy_view_stay_coherent():
    b = tb.TensorBuffer.create_fixed_size((3,), "float64")
    view = b.numpy()
    tb.tensor_scatter_nd_update_in_place(b, [[2]], [5.0])
    assert view.tolist() == [0, 0, 5]
    asarray = tb.asarray(view)  # borrows the same memory
    tb.tensor_scatter_nd_add_in_place(asarray, [[0]], [1.0])
    assert b.get_float_array().tolist() == [1, 0, 5]


def test_python_updates_take_the_tensor_dtype():
    a = np.zeros(3, np.int16)
    tb.tensor_scatter_nd_add_in_place(a, [[0], [1]], [300.7, -2])
    assert a.tolist() == [300, -2, 0]
    h = np.zeros(2, np.float16)
    tb.boolean_mask_update_in_place(h, [False, True], 0.5)
    assert h.tolist() == [0, 0.5]


def test_the_gil_is_released_while_an_op_runs():
    n = 1 << 22
    table = np.zeros(n, np.float32)
    indices = np.random.default_rng(1).integers(0, n, size=(n, 1))
    updates = np.ones(n, np.float32)
    done = threading.Event()
    worker = threading.Thread(target=lambda: (
        [tb.tensor_scatter_nd_add_in_place(table, indices, updates) for _ in range(5)], done.set()))
    worker.start()
    ticks = 0
    while not done.is_set():
        ticks += 1
    worker.join()
    assert table.sum(dtype=np.float64) == 5 * n
    assert ticks > 1000  # the main thread ran while the op did


def test_concurrent_calls_on_one_tensorbuffer_are_serialized():
    b = tb.TensorBuffer.create_fixed_size((1024,), "float32")
    indices = np.arange(1024).reshape(-1, 1)
    ones = np.ones(1024, np.float32)

    def add():
        for _ in range(50):
            tb.tensor_scatter_nd_add_in_place(b, indices, ones)

    threads = [threading.Thread(target=add) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert b.get_float_array().tolist() == [200.0] * 1024
