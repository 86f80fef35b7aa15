"""Loads tensorbuf._torch_fast, the optional accelerator for torch tensor arguments, when it was
built against the torch this interpreter imported: the same torch.__version__ and the same
package directory (another torch's libraries in the same process would break both). _tensorbuf
calls load() once, after torch was imported; anything but the capsule means the pure path."""

import os
import sys


def load():
    """The accelerator's capsule, or a string saying why not."""
    if os.environ.get("TENSORBUF_NO_TORCH_FAST"):
        return "disabled by TENSORBUF_NO_TORCH_FAST"
    try:
        from . import _torch_fast_build as build
    except ImportError:
        return "not built"
    torch = sys.modules.get("torch")
    version = getattr(torch, "__version__", None)
    if version != build.TORCH_VERSION:
        return f"built for torch {build.TORCH_VERSION}, torch {version} imported"
    directory = os.path.dirname(os.path.realpath(getattr(torch, "__file__", "") or ""))
    if directory != build.TORCH_DIR:
        return f"built for the torch in {build.TORCH_DIR}, the one in {directory} imported"
    try:
        from . import _torch_fast
    except ImportError as error:
        return f"import failed: {error}"
    return _torch_fast._api
