"""In-place ops on torch tensors and autograd: a write tensorbuf makes bumps
the tensor's version counter as torch's own in-place ops do, so backward through a saved tensor
raises instead of computing a wrong gradient; a tensor that requires grad is refused while
autograd records, and taken (detached) under torch.no_grad()."""

import numpy as np
import pytest
import torch

import tensorbuf as tb

MODIFIED = "modified by an inplace operation"


def test_scatter_into_a_tensor_saved_for_backward_makes_backward_raise():
    w = torch.ones(3, requires_grad=True)
    x = torch.arange(3.0)
    y = (w * x).sum()  # saves x for w's gradient
    version = x._version
    tb.tensor_scatter_nd_add_in_place(x, [[0]], [5.0])
    assert x.tolist() == [5, 1, 2] and x._version > version
    with pytest.raises(RuntimeError, match=MODIFIED):
        y.backward()


def test_scatter_elements_into_a_saved_tensor_makes_backward_raise():
    w = torch.ones(3, requires_grad=True)
    x = torch.arange(3.0)
    y = (w * x).sum()  # saves x for w's gradient
    version = x._version
    tb.scatter_elements_in_place(x, [2, 2], [1.0, 2.0], reduction="add")
    assert x.tolist() == [0, 1, 5] and x._version > version
    with pytest.raises(RuntimeError, match=MODIFIED):
        y.backward()


def test_mask_update_bumps_the_version_a_view_shares_with_its_base():
    w = torch.ones(4, requires_grad=True)
    base = torch.zeros(5)
    y = (w * base[1:]).sum()
    view = base[1:]
    tb.boolean_mask_update_in_place(view, torch.tensor([True, False, False, True]), 2.0)
    assert base.tolist() == [0, 2, 0, 0, 2]
    with pytest.raises(RuntimeError, match=MODIFIED):
        y.backward()


def test_a_detached_tensor_shares_the_version_counter():
    leaf = torch.ones(3, requires_grad=True)
    y = (leaf * leaf).sum()
    with torch.no_grad():
        tb.tensor_scatter_nd_update_in_place(leaf.detach(), [[1]], [4.0])
    assert leaf.tolist() == [1, 4, 1]
    with pytest.raises(RuntimeError, match=MODIFIED):
        y.backward()


def test_a_tensor_that_requires_grad_is_refused_unchanged():
    for t in (torch.zeros(3, requires_grad=True), torch.ones(3, requires_grad=True) * 2):
        before = t.detach().clone()
        with pytest.raises(tb.InvalidArgumentError, match="requires grad"):
            tb.tensor_scatter_nd_add_in_place(t, [[0]], [1.0])
        with pytest.raises(tb.InvalidArgumentError, match="requires grad"):
            tb.boolean_mask_update_in_place(t, [True, False, True], 1.0)
        assert torch.equal(t.detach(), before)


def test_an_error_bumps_nothing_and_writes_nothing():
    x = torch.zeros(3)
    version = x._version
    with pytest.raises(tb.InvalidArgumentError, match="does not index"):
        tb.tensor_scatter_nd_add_in_place(x, [[7]], [1.0], out_of_bounds="error")
    assert x._version == version and x.tolist() == [0, 0, 0]


def test_inference_tensors_have_no_version_to_bump():
    with torch.inference_mode():
        t = torch.zeros(3)
    tb.tensor_scatter_nd_add_in_place(t, [[2]], [1.0])
    assert t.tolist() == [0, 0, 1]


def test_out_of_place_ops_and_read_arguments_bump_nothing():
    x, i, u = torch.zeros(3), torch.tensor([[1]]), torch.tensor([1.0])
    versions = [x._version, i._version, u._version]
    tb.tensor_scatter_nd_add(x, i, u)
    tb.tensor_scatter_nd_add_in_place(np.zeros(3, np.float32), i, u)
    assert [x._version, i._version, u._version] == versions


def test_under_no_grad_a_parameter_is_updated_in_place_and_its_version_bumped():
    # What an optimizer does, and what torch's own p.add_() allows under torch.no_grad().
    p = torch.zeros(4, requires_grad=True)
    version = p._version
    with torch.no_grad():
        tb.tensor_scatter_nd_add_in_place(p, [[1]], [2.0])
        tb.boolean_mask_update_in_place(p, [True, False, False, False], -1.0)
        out = tb.tensor_scatter_nd_sub(p, [[1]], [2.0])
    assert p.detach().tolist() == [-1.0, 2.0, 0.0, 0.0]
    assert p._version >= version + 2
    assert p.requires_grad
    assert np.asarray(out).tolist() == [-1.0, 0.0, 0.0, 0.0]
