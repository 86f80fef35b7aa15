"""README.md's Python example runs as written."""

import pathlib
import re


def test_readme_python_example_runs():
    readme = pathlib.Path(__file__).resolve().parents[2] / "README.md"
    blocks = re.findall(r"```python\n(.*?)```", readme.read_text(), re.S)
    assert blocks, "README.md has no Python example"
    namespace = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    assert namespace["table"][5].tolist() == [-1, -1, -1, -1]
    assert namespace["out"][0].tolist() == [-1, -2, -3, -4]
    assert type(namespace["out"]).__module__ == "torch"
    assert type(namespace["back"]).__name__ == "ndarray"
    assert namespace["back"][0].tolist() == [-1, -2, -3, -4]
    assert type(namespace["raw"]).__name__ == "TensorBuffer"
    assert namespace["words"] == ["éll".encode(), "örl".encode()]
