"""Torch-style [n] indices meant as n rows (torch's index_add_ takes a 1-D index): the error
tensorbuf raises anyway names the fix. A [n] index stays one index of depth n where valid."""

import numpy as np
import pytest
import torch

import tensorbuf as tb

HINT = "indices of shape [n] are one index; use indices[:, None] for n rows"


@pytest.mark.parametrize("kind", ["numpy", "torch"])
def test_one_dim_indices_with_n_update_rows_get_the_hint(kind):
    make = np.asarray if kind == "numpy" else torch.as_tensor
    table = make(np.zeros((4, 3), np.float32))
    indices = make(np.array([0, 2, 3], np.int64))
    updates = make(np.ones((3, 3), np.float32))
    before = np.array(table).copy()
    with pytest.raises(tb.InvalidArgumentError) as error:
        tb.tensor_scatter_nd_add_in_place(table, indices, updates)
    assert str(error.value).endswith(HINT)
    assert np.array_equal(np.array(table), before)  # nothing written
    # The fix the message names works.
    tb.tensor_scatter_nd_add_in_place(table, indices[:, None], updates)
    assert np.array(table).tolist() == [[1] * 3, [0] * 3, [1] * 3, [1] * 3]


def test_hint_on_rank_one_tensor_depth_error():
    with pytest.raises(tb.InvalidArgumentError) as error:
        tb.tensor_scatter_nd_update(np.zeros(5, np.int32), np.array([1, 4]),
                                    np.array([7, 8], np.int32))
    assert "index depth indices.shape[-1] = 2" in str(error.value)
    assert str(error.value).endswith(HINT)


def test_no_hint_when_updates_do_not_have_n_rows():
    with pytest.raises(tb.InvalidArgumentError) as error:
        tb.tensor_scatter_nd_update(np.zeros(5, np.int32), np.array([1, 4]),
                                    np.array([7], np.int32))
    assert "one index" not in str(error.value)


def test_valid_one_dim_index_is_unchanged():
    out = tb.tensor_scatter_nd_add(np.zeros((2, 3), np.float32), np.array([1, 2]),
                                   np.array(5, np.float32))
    assert np.asarray(out).tolist() == [[0, 0, 0], [0, 0, 5]]
