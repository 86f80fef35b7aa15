"""The optional accelerator tensorbuf._torch_fast (python/torch_fast): when built, it is loaded
for the torch it was built against, reads plain torch tensors and bumps their version counters
in C++, and every result and error is the one of the pure path (_torch_fast_enable(False));
for another torch version it is not loaded at all, and everything still works."""

import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import tensorbuf as tb
from tensorbuf import _tensorbuf

BUILT = importlib.util.find_spec("tensorbuf._torch_fast_build") is not None
OFF = bool(os.environ.get("TENSORBUF_NO_TORCH_FAST"))
# Set where the accelerator must be there (scripts/check_wheel.sh, ctest where it is built): its
# tests then fail rather than skip when an install or wheel lost it.
EXPECTED = os.environ.get("TENSORBUF_EXPECT_TORCH_FAST") == "1"
needs_accelerator = pytest.mark.skipif(not EXPECTED and (not BUILT or OFF),
                                       reason="tensorbuf._torch_fast not built or turned off")
MODIFIED = "modified by an inplace operation"


def state():
    return _tensorbuf._torch_fast_state()


def outcome(call):
    """("ok", value) or (exception type, message): what a call gives, to compare both paths."""
    try:
        value = call()
    except Exception as error:  # noqa: BLE001 - the exact class is what is compared
        return type(error), str(error)
    if isinstance(value, torch.Tensor):
        value = (value.dtype, value.tolist())
    elif isinstance(value, (tb.TensorBuffer, np.ndarray)):
        value = np.asarray(value).tolist()
    return "ok", value


def both_paths(make_and_call):
    """make_and_call() -> (outcome, state of its tensors), on the accelerated path and the pure
    one; also how many tensors the accelerator read on the first."""
    before = state()["reads"]
    fast = make_and_call()
    reads = state()["reads"] - before
    _tensorbuf._torch_fast_enable(False)
    try:
        before_pure = state()["reads"]
        pure = make_and_call()
        assert state()["reads"] == before_pure
    finally:
        _tensorbuf._torch_fast_enable(True)
    return fast, pure, reads


@needs_accelerator
def test_the_built_accelerator_is_loaded_for_this_torch():
    torch.zeros(1)
    assert state()["status"] == "loaded"
    assert sys.modules["tensorbuf._torch_fast"].torch_version == torch.__version__


@needs_accelerator
def test_plain_tensors_are_read_and_bumped_by_the_accelerator():
    x, i, u = torch.zeros(16, 4), torch.tensor([[3]]), torch.ones(1, 4)
    start, version = state(), x._version
    tb.tensor_scatter_nd_add_in_place(x, i, u)
    end = state()
    assert (end["reads"] - start["reads"], end["bumps"] - start["bumps"]) == (3, 1)
    assert x._version == version + 1
    expected = np.zeros((16, 4), np.float32)
    expected[3] = 1
    assert np.array_equal(x.numpy(), expected)


@needs_accelerator
@pytest.mark.parametrize("dtype", [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32,
                                   torch.int64, torch.float16, torch.bfloat16, torch.float32,
                                   torch.float64], ids=str)
def test_every_dtype_gives_the_pure_paths_result(dtype):
    def run():
        t = torch.zeros(3, 2, dtype=dtype)
        tb.tensor_scatter_nd_update_in_place(t, torch.tensor([[1]]), torch.ones(1, 2, dtype=dtype))
        return outcome(lambda: t), t._version

    fast, pure, reads = both_paths(run)
    assert fast == pure and reads == 3
    assert fast[0][1][1] == [[0, 0], [1, 1], [0, 0]]


@needs_accelerator
def test_a_non_contiguous_tensor_goes_the_general_way():
    def run():
        base = torch.arange(12, dtype=torch.float32).reshape(3, 4)
        column = base[:, 1]
        read = outcome(lambda: tb.tensor_scatter_nd_add(column, [[0]], [10.0]))
        write = outcome(lambda: tb.tensor_scatter_nd_add_in_place(column, [[0]], [10.0]))
        return read, write, base.tolist(), base._version

    fast, pure, _ = both_paths(run)
    assert fast == pure
    assert fast[0] == ("ok", (torch.float32, [11, 5, 9])) and fast[1][0] is tb.InvalidArgumentError


@needs_accelerator
def test_negative_and_conjugate_views_give_the_pure_paths_errors():
    def run():
        z = torch.tensor([1 + 2j, 3 - 4j], dtype=torch.complex64)
        negative = z.conj().imag  # -imag, the negative bit set
        conjugate = z.conj()      # complex64, the conjugate bit set
        return (outcome(lambda: tb.tensor_scatter_nd_add(negative, [[0]], [0.5])),
                outcome(lambda: tb.tensor_scatter_nd_add_in_place(negative, [[0]], [0.5])),
                outcome(lambda: tb.tensor_scatter_nd_add_in_place(conjugate, [[0]], [0.5])),
                z.tolist())

    fast, pure, _ = both_paths(run)
    assert fast == pure
    assert fast[0] == ("ok", (torch.float32, [-1.5, 4.0]))
    assert fast[1][0] is tb.InvalidArgumentError and "negative bit" in fast[1][1]
    assert fast[2][0] != "ok" and fast[3] == [1 + 2j, 3 - 4j]


@needs_accelerator
def test_wrong_dtypes_give_the_pure_paths_errors():
    def run():
        x = torch.zeros(4, dtype=torch.float32)
        return (outcome(lambda: tb.tensor_scatter_nd_add_in_place(
                    x, torch.tensor([[1]]), torch.ones(1, dtype=torch.float64))),
                outcome(lambda: tb.tensor_scatter_nd_add_in_place(
                    x, torch.tensor([[1.0]]), torch.ones(1))),
                outcome(lambda: tb.tensor_scatter_nd_add_in_place(
                    torch.zeros(2, dtype=torch.complex64), [[0]], [1.0])),
                x.tolist(), x._version)

    fast, pure, reads = both_paths(run)
    assert fast == pure and reads > 0
    assert all(result[0] != "ok" for result in fast[:3])


@needs_accelerator
def test_a_leaf_that_requires_grad_is_refused_as_before_and_taken_under_no_grad():
    def run():
        leaf = torch.zeros(3, requires_grad=True)
        refused = outcome(lambda: tb.tensor_scatter_nd_add_in_place(leaf, [[0]], [1.0]))
        version = leaf._version
        with torch.no_grad():
            taken = outcome(lambda: tb.tensor_scatter_nd_add_in_place(leaf, [[1]], [2.0]))
        return refused, taken, leaf.detach().tolist(), leaf._version - version

    fast, pure, reads = both_paths(run)
    assert fast == pure and reads > 0
    assert fast[0][0] is tb.InvalidArgumentError and "requires grad" in fast[0][1]
    assert fast[1:] == (("ok", None), [0, 2, 0], 1)


@needs_accelerator
def test_a_parameter_is_read_by_the_accelerator_under_no_grad():
    p = torch.nn.Parameter(torch.zeros(3))
    start = state()
    with torch.no_grad():
        tb.tensor_scatter_nd_add_in_place(p, torch.tensor([[2]]), torch.tensor([1.5]))
    assert state()["reads"] - start["reads"] == 3 and state()["bumps"] - start["bumps"] == 1
    assert p.tolist() == [0, 0, 1.5] and p.requires_grad


@needs_accelerator
def test_a_subclass_takes_the_pure_path():
    class Tagged(torch.Tensor):
        pass

    t = torch.zeros(3).as_subclass(Tagged)
    start = state()
    tb.tensor_scatter_nd_add_in_place(t, torch.tensor([[2]]), torch.tensor([1.5]))
    # the index and updates are plain tensors; the subclass is read and bumped the pure way
    assert state()["reads"] - start["reads"] == 2 and state()["bumps"] == start["bumps"]
    assert t.tolist() == [0, 0, 1.5] and t._version == 1


@needs_accelerator
def test_a_tensor_saved_for_backward_makes_backward_raise_after_a_write():
    w = torch.ones(3, requires_grad=True)
    base = torch.arange(4.0)
    x = base[1:]
    y = (w * x).sum()  # saves x for w's gradient
    start = state()
    tb.tensor_scatter_nd_add_in_place(x, torch.tensor([[0]]), torch.tensor([5.0]))
    assert state()["bumps"] - start["bumps"] == 1
    assert base.tolist() == [0, 6, 2, 3] and base._version == x._version == 1
    with pytest.raises(RuntimeError, match=MODIFIED):
        y.backward()


@needs_accelerator
def test_inference_tensors_are_written_without_a_version():
    with torch.inference_mode():
        t = torch.zeros(3)
    tb.tensor_scatter_nd_add_in_place(t, torch.tensor([[2]]), torch.tensor([1.0]))
    assert t.tolist() == [0, 0, 1]
    with torch.inference_mode():
        tb.tensor_scatter_nd_add_in_place(t, torch.tensor([[0]]), torch.tensor([1.0]))
    assert t.tolist() == [1, 0, 1]


@needs_accelerator
def test_empty_and_sparse_tensors_give_the_pure_paths_outcome():
    def run():
        empty = torch.zeros(0, 2)
        sparse = torch.zeros(3).to_sparse()
        return (outcome(lambda: tb.tensor_scatter_nd_add_in_place(
                    empty, torch.zeros(0, 1, dtype=torch.int64), torch.zeros(0, 2))),
                outcome(lambda: tb.tensor_scatter_nd_add(empty, torch.zeros(0, 1, dtype=torch.int64),
                                                         torch.zeros(0, 2))),
                outcome(lambda: tb.tensor_scatter_nd_add_in_place(sparse, [[0]], [1.0]))[0],
                tuple(empty.shape))

    fast, pure, _ = both_paths(run)
    assert fast == pure and fast[0] == ("ok", None) and fast[3] == (0, 2)


def run_python(code, **env):
    environment = dict(os.environ, **env)
    return subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                          text=True, env=environment).stdout.strip()


CALL = ("x = torch.zeros(3)\n"
        "tb.tensor_scatter_nd_add_in_place(x, torch.tensor([[1]]), torch.tensor([2.0]))\n"
        "assert x.tolist() == [0, 2, 0] and x._version == 1, (x, x._version)\n")


@needs_accelerator
def test_another_torch_version_is_not_loaded():
    code = ("import sys, torch\n"
            "torch.__version__ = '0.0.1'\n"
            "import tensorbuf as tb\n" + CALL +
            "assert 'tensorbuf._torch_fast' not in sys.modules\n"
            "print(tb._tensorbuf._torch_fast_state())\n")
    out = run_python(code)
    assert f"built for torch {torch.__version__}, torch 0.0.1 imported" in out
    assert "'reads': 0" in out and "'bumps': 0" in out


@pytest.mark.skipif(not BUILT and not EXPECTED, reason="tensorbuf._torch_fast not built")
def test_the_environment_variable_turns_it_off():
    code = ("import sys, torch, tensorbuf as tb\n" + CALL +
            "assert 'tensorbuf._torch_fast' not in sys.modules\n"
            "print(tb._tensorbuf._torch_fast_state()['status'])\n")
    assert run_python(code, TENSORBUF_NO_TORCH_FAST="1") == "disabled by TENSORBUF_NO_TORCH_FAST"


def test_without_the_accelerator_the_status_says_why():
    torch.zeros(1)
    status = state()["status"]
    if EXPECTED:
        assert (BUILT, OFF, status) == (True, False, "loaded")
    elif BUILT and not OFF:
        assert status == "loaded"
    else:
        assert status in ("not built", "disabled by TENSORBUF_NO_TORCH_FAST")
