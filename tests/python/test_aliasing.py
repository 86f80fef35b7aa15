"""In-place ops read inputs that share the tensor's memory as they were (docs/interop.md,
"Aliasing"): one NumPy array or torch tensor passed twice, or a view of it, is detected by its
memory, not by object identity."""

import numpy as np
import torch

import tensorbuf as tb


def test_one_numpy_array_as_tensor_and_indices():
    data = np.array([1, 2, 3, 0], dtype=np.int32)
    tb.tensor_scatter_nd_update_in_place(data, data.reshape(4, 1),
                                         np.array([5, 6, 7, 8], dtype=np.int32))
    assert data.tolist() == [8, 5, 6, 7]


def test_a_view_of_the_tensor_as_updates():
    data = np.arange(1, 9, dtype=np.float32)
    tb.tensor_scatter_nd_add_in_place(data, np.array([[7], [6], [5], [4]]), data[4:])
    assert data.tolist() == [1, 2, 3, 4, 13, 13, 13, 13]


def test_one_torch_tensor_as_tensor_and_updates():
    data = torch.arange(1, 5, dtype=torch.float32)
    tb.tensor_scatter_nd_add_in_place(data, torch.tensor([[3], [2], [1], [0]]), data)
    assert data.tolist() == [5, 5, 5, 5]


def test_mask_update_with_a_view_of_the_tensor_as_updates():
    data = np.array([1, 2, 3, 4], dtype=np.float32)
    tb.boolean_mask_update_in_place(data, np.array([False, True, True, True]), data[:3])
    assert data.tolist() == [1, 1, 2, 3]
