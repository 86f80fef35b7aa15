"""tensorbuf: typed buffers and scatter / mask-update / substr ops on CPU and CUDA.

The ops take PyTorch tensors, NumPy arrays, CuPy / JAX arrays (DLPack), Arrow string arrays and
Python lists; ``*_in_place`` ops write into the caller's own memory. See docs/python.md.
"""

# Every class and op the extension binds: the ops come from the op table
# (include/tensorbuf/op_table.hpp), so a new op needs no line here.
from ._tensorbuf import *  # noqa: F401,F403
from ._tensorbuf import __version__  # noqa: F401

__all__ = [name for name in dir() if not name.startswith("_")] + ["__version__"]
