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


# ONNX operator -> how tensorbuf runs one node of it.
RUNNERS = {
    "Compress": run_compress,
    "QuantizeLinear": run_quantize_linear,
    "DequantizeLinear": run_dequantize_linear,
    "Cast": run_cast,
    "GatherND": run_gather_nd,
}
PREFIXES = ("test_compress", "test_quantizelinear", "test_dequantizelinear", "test_cast_",
            "test_gathernd_")


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


@pytest.mark.skipif(not node_tests(), reason=f"no ONNX node tests under {DATA}")
@pytest.mark.parametrize("name", node_tests())
def test_onnx_node(name):
    model = onnx.load(os.path.join(DATA, name, "model.onnx"))
    node = model.graph.node[0]
    attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
    data_set = os.path.join(DATA, name, "test_data_set_0")
    inputs = [read_tensor(os.path.join(data_set, f"input_{i}.pb"))
              for i in range(len(node.input))
              if os.path.exists(os.path.join(data_set, f"input_{i}.pb"))]
    expected = read_tensor(os.path.join(data_set, "output_0.pb"))
    got = np.asarray(RUNNERS[node.op_type](inputs, attrs))
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert got.tobytes() == expected.tobytes()


def test_the_node_tests_were_found_where_they_are_installed():
    if os.environ.get("CI") and not node_tests():
        pytest.fail(f"CI installs libonnx-testdata, but {DATA} has no node tests")
    if node_tests():
        assert len(node_tests()) >= 4 + 4  # four Compress, at least 4 Q/DQ
        assert sum(name.startswith("test_gathernd_") for name in node_tests()) >= 3
