"""Converts Debian libonnx-testdata's node tests for QuantizeLinear, DequantizeLinear and Cast
into .npy files for test_onnx_conformance: one folder per test with in0.npy, in1.npy, ...,
out.npy and node.txt ("<op> <axis or target dtype>"). Writes nothing when onnx or the data is
missing (the C++ test then skips). BFLOAT16 and STRING cases are left out (spec 6)."""
import os
import sys

DATA = "/usr/share/libonnx-testdata/data/node"


def main(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    try:
        import numpy as np
        import onnx
        from onnx import numpy_helper
    except ImportError:
        return 0
    if not os.path.isdir(DATA):
        return 0
    names = sorted(n for n in os.listdir(DATA)
                   if n.startswith(("test_quantizelinear", "test_dequantizelinear", "test_cast_"))
                   and "BFLOAT16" not in n and "STRING" not in n)
    for name in names:
        model = onnx.load(os.path.join(DATA, name, "model.onnx"))
        node = model.graph.node[0]
        attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
        if node.op_type == "Cast":
            param = np.dtype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[attrs["to"]]).name
        else:
            param = str(attrs.get("axis", 1))
        data_set = os.path.join(DATA, name, "test_data_set_0")
        dest = os.path.join(out_dir, name)
        os.makedirs(dest, exist_ok=True)
        files = sorted(os.listdir(data_set))
        for f in files:
            tensor = onnx.TensorProto()
            with open(os.path.join(data_set, f), "rb") as fh:
                tensor.ParseFromString(fh.read())
            array = numpy_helper.to_array(tensor)
            stem = f.replace("input_", "in").replace("output_0", "out").replace(".pb", "")
            np.save(os.path.join(dest, stem + ".npy"), np.ascontiguousarray(array))
        with open(os.path.join(dest, "node.txt"), "w") as fh:
            fh.write(f"{node.op_type} {param}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
