"""ONNX's own node tests (Debian's libonnx-testdata, read with python3-onnx) through the Python
package: every test of an operator tensorbuf implements, inputs from test_data_set_0, the output
compared byte for byte. scripts/install_deps.sh installs both, so CI runs them; elsewhere the
tests skip. Left out (spec/processing.md 6, spec/indexing.md 7): STRING and BFLOAT16 casts (onnx
1.12's expected bfloat16 values truncate, where tensorbuf rounds to nearest even)."""

import os

import numpy as np
import pytest

import tensorbuf as tb

onnx = pytest.importorskip("onnx")
from onnx import numpy_helper  # noqa: E402

DATA = "/usr/share/libonnx-testdata/data/node"


def run_compress(inputs, attrs):
    return tb.compress(inputs[0], inputs[1], axis=attrs.get("axis"))


def run_quantize_linear(inputs, attrs):
    zero_point = inputs[2] if len(inputs) > 2 else np.zeros((), np.uint8)  # ONNX's default
    return tb.quantize_linear(inputs[0], inputs[1], zero_point, axis=attrs.get("axis", 1))


def run_dequantize_linear(inputs, attrs):
    zero_point = inputs[2] if len(inputs) > 2 else np.zeros((), inputs[0].dtype)
    return tb.dequantize_linear(inputs[0], inputs[1], zero_point, axis=attrs.get("axis", 1))


def run_cast(inputs, attrs):
    return tb.cast(inputs[0], np.dtype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[attrs["to"]]))


def run_gather_nd(inputs, attrs):
    # ONNX wraps negative indices, tensorbuf's *_nd ops reject them (spec/indexing.md 3.2): the
    # node tests have none, and error makes any that appear fail loudly rather than differ.
    return tb.gather_nd(inputs[0], inputs[1], batch_dims=attrs.get("batch_dims", 0),
                        out_of_bounds="error")


def run_gather(inputs, attrs, device="cpu"):
    # Out of range is an error here: ONNX defines no value for it, so none may pass unseen.
    return tb.gather(inputs[0], inputs[1], axis=attrs.get("axis", 0), out_of_bounds="error",
                     device=device)


def run_gather_elements(inputs, attrs, device="cpu"):
    return tb.gather_elements(inputs[0], inputs[1], axis=attrs.get("axis", 0),
                              out_of_bounds="error", device=device)


def run_scatter_elements(inputs, attrs, device="cpu"):
    # ONNX's reduction words are tensorbuf's ("none", "add", "mul", "min", "max");
    # deterministic: duplicates combine in row-major order on CUDA too, as ONNX's do.
    reduction = attrs.get("reduction", b"none")
    return tb.scatter_elements(inputs[0], inputs[1], inputs[2], axis=attrs.get("axis", 0),
                               reduction=reduction.decode(), out_of_bounds="error",
                               deterministic=True, device=device)


# ONNX operator -> how tensorbuf runs one node of it.
RUNNERS = {
    "Compress": run_compress,
    "QuantizeLinear": run_quantize_linear,
    "DequantizeLinear": run_dequantize_linear,
    "Cast": run_cast,
    "GatherND": run_gather_nd,
    "Gather": run_gather,
    "GatherElements": run_gather_elements,
    "ScatterElements": run_scatter_elements,
}
PREFIXES = ("test_compress", "test_quantizelinear", "test_dequantizelinear", "test_cast_",
            "test_gathernd_", "test_gather_", "test_scatter_elements_")


def node_tests():
    if not os.path.isdir(DATA):
        return []
    return sorted(name for name in os.listdir(DATA) if name.startswith(PREFIXES)
                  and "BFLOAT16" not in name and "STRING" not in name)


def read_tensor(path):
    tensor = onnx.TensorProto()
    with open(path, "rb") as f:
        tensor.ParseFromString(f.read())
    return np.ascontiguousarray(numpy_helper.to_array(tensor))


def run_node(name, **options):
    """tensorbuf's output for the node test `name`, and ONNX's expected one."""
    model = onnx.load(os.path.join(DATA, name, "model.onnx"))
    node = model.graph.node[0]
    attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
    data_set = os.path.join(DATA, name, "test_data_set_0")
    inputs = [read_tensor(os.path.join(data_set, f"input_{i}.pb"))
              for i in range(len(node.input))
              if os.path.exists(os.path.join(data_set, f"input_{i}.pb"))]
    expected = read_tensor(os.path.join(data_set, "output_0.pb"))
    return np.asarray(RUNNERS[node.op_type](inputs, attrs, **options)), expected


@pytest.mark.skipif(not node_tests(), reason=f"no ONNX node tests under {DATA}")
@pytest.mark.parametrize("name", node_tests())
def test_onnx_node(name):
    got, expected = run_node(name)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert got.tobytes() == expected.tobytes()


# The indexing ops' node tests on CUDA as well, where a device is present (spec/indexing.md 7).
ON_CUDA = ("test_gather_", "test_scatter_elements_")


@pytest.mark.skipif(not tb.cuda_available(), reason="no usable CUDA device")
@pytest.mark.parametrize("name", [name for name in node_tests() if name.startswith(ON_CUDA)])
def test_onnx_node_on_cuda(name):
    got, expected = run_node(name, device="cuda")
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert got.tobytes() == expected.tobytes()


def test_the_node_tests_were_found_where_they_are_installed():
    if os.environ.get("CI") and not node_tests():
        pytest.fail(f"CI installs libonnx-testdata, but {DATA} has no node tests")
    if node_tests():
        assert len(node_tests()) >= 4 + 4  # four Compress, at least 4 Q/DQ
        assert sum(name.startswith("test_gathernd_") for name in node_tests()) >= 3
        assert sum(name.startswith("test_gather_elements_") for name in node_tests()) >= 3
        assert sum(name.startswith("test_gather_") and "elements" not in name
                   for name in node_tests()) >= 4
        assert sum(name.startswith("test_scatter_elements_") for name in node_tests()) >= 4


# The ops whose every node test must run: a test of one of them that the prefixes above miss
# (a new name in a newer libonnx-testdata) fails here instead of being left out unseen. (Models
# of several nodes that use one, such as NegativeLogLikelihoodLoss's expansions, are not its
# node tests.)
COMPLETE = {"Gather", "GatherElements", "ScatterElements", "GatherND"}


def test_every_node_test_of_the_indexing_ops_runs():
    if not node_tests():
        pytest.skip(f"no ONNX node tests under {DATA}")
    found = {}
    for name in sorted(os.listdir(DATA)):
        path = os.path.join(DATA, name, "model.onnx")
        if not os.path.exists(path):
            continue
        nodes = onnx.load(path).graph.node  # a node test of the op is its one node
        if len(nodes) == 1 and nodes[0].op_type in COMPLETE:
            found.setdefault(nodes[0].op_type, []).append(name)
    assert set(found) == COMPLETE, f"no node test of {COMPLETE - set(found)}"
    missed = [name for names in found.values() for name in names if name not in node_tests()]
    assert not missed, f"node tests that test_onnx_node does not run: {missed}"
