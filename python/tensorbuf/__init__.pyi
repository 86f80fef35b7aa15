# Type stubs of the package (PEP 561): everything is the extension's (_tensorbuf.pyi, generated
# by python/write_stubs.py), as at run time (__init__.py re-exports the extension).
from ._tensorbuf import *
from ._tensorbuf import __version__ as __version__
