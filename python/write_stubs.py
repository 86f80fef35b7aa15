#!/usr/bin/env python3
"""Writes the type stubs of tensorbuf's extension (PEP 561) from the built module.

    PYTHONPATH=build/<preset>/python python3 python/write_stubs.py [OUTPUT_DIR]

writes OUTPUT_DIR/_tensorbuf.pyi (default: python/tensorbuf/, beside this script). Run it after
adding an op to the op table (include/tensorbuf/op_table.hpp) or changing a binding, and commit
the result: tests/python/test_stubs.py fails while the committed stubs differ from its output.

Every function, class, method, static method and property comes from the module itself: the
first line of each pybind11 docstring is its signature. pybind11 names arguments it does not
convert `handle` / `object`; they get their types here, by argument name (one name means one
thing in every binding: `tensor`, `device`, `stream` ...), and the returns it calls `object` by
function name. A name missing from these tables is an error that says where to add it, never a
silent Any. The types pybind11 does write are spelled the same way for every pybind11 version
(2.10 writes `numpy.ndarray[numpy.float32]`, 3.x `numpy.typing.NDArray[numpy.float32]`), so the
stubs do not depend on the pybind11 that built the module.
"""

import ast
import importlib
import inspect
import pathlib
import re
import sys
import textwrap

MODULE = "tensorbuf._tensorbuf"

# Arguments pybind11 leaves as `handle` / `object` / a protocol, by name. An argument whose
# default is None also takes None (` | None` is added). The arguments that take one of a few
# words (out_of_bounds, unit) are added by render() from the extension's _spellings.
ARGUMENT_TYPES = {
    "tensor": "_ArrayLike",
    "indices": "_ArrayLike",
    "updates": "_ArrayLike",
    "mask": "_ArrayLike",
    "out": "_ArrayLike",  # written in place: a writable array, torch tensor or TensorBuffer
    "count": "_ArrayLike",
    "input": "_ArrayLike",
    "condition": "_ArrayLike",
    "x": "_ArrayLike",
    "mean": "float | Sequence[float]",  # normalize: one number, or one per channel
    "stddev": "float | Sequence[float]",
    "scale": "_ArrayLike",  # quantize_linear's (quantize's is a float pybind11 types itself)
    "zero_point": "_ArrayLike",
    "pos": "_ArrayLike",
    "len": "_ArrayLike",
    "obj": "_ArrayLike",
    "source": "_ArrayLike",
    "strings": "_Strings",
    "values": "ArrayLike",  # load_array: anything numpy.asarray takes
    "bytes": "ReadableBuffer",
    "device": "str",  # 'cpu', 'cuda' or 'cuda:N' (python/src/arguments.cpp, parse_device)
    "stream": "_Stream",
    "dtype": "_DTypeLike",
    "shape": "_ShapeLike",
    "copy": "bool",
    "params": "_ArrayLike",  # the gathers'
}

# The same, for one function's argument ("function.argument", "Class.method.argument").
ARGUMENT_OVERRIDES = {
    "from_dlpack.obj": "_SupportsDLPack | _PyCapsule",
    "TensorBuffer.__array__.dtype": "DTypeLike",  # given to ndarray.astype
    "TensorBuffer.__dlpack__.stream": "int",  # DLPack's: 1, 2, -1 or a cudaStream_t
    "TensorBuffer.__dlpack__.max_version": "tuple[int, int]",
    "TensorBuffer.__dlpack__.dl_device": "tuple[int, int]",
    "TensorBuffer.wait_for.stream": "_Stream | None",  # None: the library's stream
    "StringTensor.__arrow_c_array__.requested_schema": "_PyCapsule",
}

# Returns pybind11 leaves as `object` (or types it writes too loosely), by function name. The ops
# of the op table whose result is like their first input (like in, like out:
# python/src/result_type.hpp) return _OpResult: the module lists them (_op_results, written by
# python/src/bind_ops.cpp's walk of the table), so an op of the table needs no line here.
RETURN_TYPES = {
    "asarray": "TensorBuffer",
    "from_dlpack": "TensorBuffer",
    "substr": "StringTensor",
    "Processor.run": "_OpResult",
    "stats": "dict[str, int]",
    "TensorBuffer.shape": "tuple[int, ...]",
    "TensorBuffer.__array__": "NDArray[Any]",
    "StringTensor.shape": "tuple[int, ...]",
    "StringTensor.__getitem__": "Any",  # bytes for a 1-D tensor, else a StringTensor row
    "StringTensor.__iter__": "Iterator[Any]",
    "StringTensor.to_list": "Any",  # bytes, or lists of them nested as deep as the shape
    "StringTensor.to_numpy": "NDArray[numpy.bytes_]",
    "StringTensor.__arrow_c_array__": "tuple[_PyCapsule, _PyCapsule]",
}

# pybind11's spellings of the types it does write, as the stubs spell them.
CANONICAL_TYPES = [
    (r"\btensorbuf\._tensorbuf\.", ""),
    (r"\btyping\.SupportsInt( \| typing\.SupportsIndex)?\b", "int"),
    (r"\btyping\.SupportsFloat( \| typing\.SupportsIndex)?\b", "float"),
    (r"\b(typing\.)?Optional\[(\w+)\]", r"\2 | None"),  # pybind11 2.10's std::optional<int>
    (r"\bTuple\[", "tuple["),
    (r"\bList\[", "list["),
    (r"\bDict\[", "dict["),
    (r"\b(numpy\.ndarray|numpy\.typing\.NDArray)\[", "NDArray["),
    (r"\b(numpy\.ndarray|numpy\.typing\.NDArray)\b(?!\[)", "NDArray[Any]"),
    (r"\b(types|typing_extensions)\.CapsuleType\b|\bcapsule\b", "_PyCapsule"),
    (r"\b(collections\.abc|typing_extensions)\.Buffer\b|\bbuffer\b", "ReadableBuffer"),
]
UNTYPED = {"handle", "object", "tuple", "dict", "list", "typing.Any", "Any"}

HEADER = '''\
# Type stubs of tensorbuf's extension module (PEP 561). Generated by python/write_stubs.py from
# the built module: do not edit; after adding an op or changing a binding, run
#   PYTHONPATH=build/<preset>/python python3 python/write_stubs.py
from collections.abc import Iterator, Sequence
from typing import Any, Literal, Protocol, SupportsIndex, TypeAlias

import numpy
from _typeshed import ReadableBuffer
from numpy.typing import ArrayLike, DTypeLike, NDArray

# Types of the arguments the bindings convert themselves (python/src/to_tensor.cpp,
# to_strings.cpp, arguments.cpp). Protocols rather than imports: torch, CuPy and JAX stay
# optional, and a type check of code that uses tensorbuf does not read torch.

class _PyCapsule:
    """An opaque PyCapsule (a DLPack tensor, an Arrow C schema or array)."""

class _SupportsDLPack(Protocol):
    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any: ...

class _SupportsCudaArrayInterface(Protocol):
    @property
    def __cuda_array_interface__(self) -> dict[str, Any]: ...

class _SupportsArrowArray(Protocol):
    def __arrow_c_array__(self, *args: Any, **kwargs: Any) -> Any: ...

class _SupportsCudaStream(Protocol):
    def __cuda_stream__(self) -> tuple[int, int] | int: ...

class _TorchCudaStream(Protocol):
    @property
    def cuda_stream(self) -> int: ...

class _TorchDType(Protocol):
    @property
    def is_floating_point(self) -> bool: ...
    @property
    def is_signed(self) -> bool: ...

# A tensor argument: a tb.TensorBuffer, anything NumPy takes (arrays, scalars, nested lists), a
# buffer-protocol object, or an array with __dlpack__ (torch, CuPy, JAX) or
# __cuda_array_interface__.
_ArrayLike: TypeAlias = (
    TensorBuffer | ArrayLike | ReadableBuffer | _SupportsDLPack | _SupportsCudaArrayInterface
)
# Strings: a tb.StringTensor, str / bytes nested in lists, NumPy 'S' / 'U' / object arrays, or an
# Arrow array (__arrow_c_array__).
_Strings: TypeAlias = (
    StringTensor
    | str
    | bytes
    | Sequence[_Strings]
    | NDArray[numpy.bytes_]
    | NDArray[numpy.str_]
    | NDArray[numpy.object_]
    | _SupportsArrowArray
)
# A CUDA stream: an int cudaStream_t, an object with __cuda_stream__, or a torch stream.
_Stream: TypeAlias = int | _SupportsCudaStream | _TorchCudaStream
# A dtype: a name ("float32", "bfloat16"), anything numpy.dtype() takes, or a torch dtype.
_DTypeLike: TypeAlias = DTypeLike | _TorchDType
_ShapeLike: TypeAlias = int | Sequence[SupportsIndex]
# An out-of-place op's result: the type of its `tensor` argument (a torch tensor, a
# tb.TensorBuffer, a CuPy array, else a NumPy array) or the type out_type names. Any: the stubs
# do not read torch, and out_type is a run-time choice.
_OpResult: TypeAlias = Any
'''

WIDTH = 100


class StubError(Exception):
    """A binding the tables above cannot type."""


def canonical(type_text):
    for pattern, replacement in CANONICAL_TYPES:
        type_text = re.sub(pattern, replacement, type_text)
    return type_text


def signature_line(qualname, doc):
    """The pybind11 signature `(...) -> T` at the head of a docstring, and the rest."""
    if not doc:
        raise StubError(f"{qualname} has no docstring, hence no pybind11 signature")
    first, _, rest = doc.partition("\n")
    if first.startswith("Overloaded function"):
        raise StubError(f"{qualname} is overloaded: teach write_stubs.py to write @overload")
    name = qualname.rsplit(".", 1)[-1]
    for prefix in (name, ""):  # properties' getters have no name
        if first.startswith(prefix + "("):
            return first[len(prefix):], rest.strip()
    raise StubError(f"{qualname}: no pybind11 signature in {first!r}")


def parse_signature(qualname, signature):
    try:
        tree = ast.parse(f"def f{signature}: ...")
    except SyntaxError as error:
        raise StubError(f"{qualname}: cannot parse the signature {signature!r}") from error
    return tree.body[0]


def argument_type(qualname, arg, default):
    """The stub type of one argument: pybind11's when it has one, else the tables'."""
    written = canonical(ast.unparse(arg.annotation)) if arg.annotation else "handle"
    key = f"{qualname}.{arg.arg}"
    if key in ARGUMENT_OVERRIDES:
        written = ARGUMENT_OVERRIDES[key]
    elif written in UNTYPED or written == "ReadableBuffer":
        if arg.arg not in ARGUMENT_TYPES:
            raise StubError(f"{qualname}: argument '{arg.arg}' is `{written}` to pybind11: give "
                            f"it a type in write_stubs.py (ARGUMENT_TYPES or ARGUMENT_OVERRIDES)")
        written = ARGUMENT_TYPES[arg.arg]
    if default is not None and isinstance(default, ast.Constant) and default.value is None:
        if written != "None" and not written.endswith("| None"):
            written += " | None"
    return written


def return_type(qualname, returns, module):
    written = canonical(ast.unparse(returns)) if returns else "None"
    if qualname in RETURN_TYPES:
        return RETURN_TYPES[qualname]
    if qualname in module._op_results:
        return "_OpResult"
    if written in UNTYPED:
        raise StubError(f"{qualname} returns `{written}` to pybind11: give it a type in "
                        f"write_stubs.py (RETURN_TYPES)")
    return written


def parameters(qualname, function, is_method):
    """The stub's parameter list: names, kinds and defaults as bound, types as above."""
    args = function.args
    if args.vararg or args.kwarg:
        raise StubError(f"{qualname}: *args / **kwargs are not handled by write_stubs.py")
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    out = []
    for index, (arg, default) in enumerate(zip(positional, defaults)):
        if index == 0 and is_method:
            out.append("self")
        else:
            out.append(parameter_text(qualname, arg, default))
        if args.posonlyargs and index == len(args.posonlyargs) - 1:
            out.append("/")
    if args.kwonlyargs:
        out.append("*")
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        out.append(parameter_text(qualname, arg, default))
    return out


def parameter_text(qualname, arg, default):
    text = f"{arg.arg}: {argument_type(qualname, arg, default)}"
    if default is not None:
        if not isinstance(default, ast.Constant):
            raise StubError(f"{qualname}: default of '{arg.arg}' is not a literal: "
                            f"{ast.unparse(default)}")
        text += f" = {literal(default.value)}"
    return text


def literal(value):
    """A default as the stubs write it (strings in double quotes, as in Literal[...])."""
    if isinstance(value, str) and '"' not in value and "\\" not in value:
        return f'"{value}"'
    return repr(value)


def docstring_lines(text, indent):
    if not text:
        return []
    text = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    paragraphs = [textwrap.fill(" ".join(p.split()), WIDTH - len(indent) - 6)
                  for p in text.split("\n\n")]
    body = "\n\n".join(paragraphs).split("\n")
    if len(body) == 1:
        return [f'{indent}"""{body[0]}"""']
    return ([f'{indent}"""{body[0]}'] + [f"{indent}{line}" if line else "" for line in body[1:]]
            + [f'{indent}"""'])


def def_lines(name, params, returns, doc, indent, decorators=()):
    lines = [f"{indent}@{decorator}" for decorator in decorators]
    one_line = f"{indent}def {name}({', '.join(params)}) -> {returns}:"
    if len(one_line) + 4 <= WIDTH:
        head = [one_line]
    else:
        head = ([f"{indent}def {name}("] + [f"{indent}    {p}," for p in params]
                + [f"{indent}) -> {returns}:"])
    body = docstring_lines(doc, indent + "    ")
    if body:
        return lines + head + body
    head[-1] += " ..."
    return lines + head


def function_lines(qualname, doc, module, indent="", is_method=False, decorators=()):
    signature, rest = signature_line(qualname, doc)
    function = parse_signature(qualname, signature)
    params = parameters(qualname, function, is_method)
    returns = return_type(qualname, function.returns, module)
    return def_lines(qualname.rsplit(".", 1)[-1], params, returns, rest, indent, decorators)


def class_bases(cls, module):
    names = []
    for base in cls.__bases__:
        if getattr(module, base.__name__, None) is base:
            names.append(base.__name__)
        elif base.__module__ == "builtins":
            names.append(base.__qualname__)
        elif not base.__module__.startswith("pybind11"):
            raise StubError(f"{cls.__name__}: base {base!r} is neither builtin nor in {MODULE}")
    return names


SKIPPED_MEMBERS = {"__doc__", "__module__", "__dict__", "__weakref__", "_pybind11_conduit_v1_"}


def class_lines(cls, module):
    bases = class_bases(cls, module)
    lines = [f"class {cls.__name__}({', '.join(bases)}):" if bases else f"class {cls.__name__}:"]
    body = docstring_lines(inspect.cleandoc(cls.__doc__ or ""), "    ")
    for name, member in vars(cls).items():
        if name in SKIPPED_MEMBERS:
            continue
        qualname = f"{cls.__name__}.{name}"
        if type(member).__name__ == "wrapper_descriptor":
            continue  # a slot pybind11 did not bind: no constructor (TensorBuffer's raises)
        if isinstance(member, staticmethod):
            body += function_lines(qualname, member.__func__.__doc__, module, "    ",
                                   decorators=("staticmethod",))
        elif isinstance(member, property):
            if member.fset is not None:
                raise StubError(f"{qualname}: settable properties are not handled yet")
            signature, _ = signature_line(qualname, member.fget.__doc__)
            returns = return_type(qualname, parse_signature(qualname, signature).returns, module)
            body += def_lines(name, ["self"], returns, inspect.cleandoc(member.__doc__ or ""),
                              "    ", decorators=("property",))
        elif callable(member):
            body += function_lines(qualname, member.__doc__, module, "    ", is_method=True)
        else:
            raise StubError(f"{qualname}: a {type(member).__name__} attribute; write_stubs.py "
                            f"knows methods, static methods and properties")
    return lines + (body or ["    ..."])


def render(module):
    """The text of _tensorbuf.pyi for the imported extension module."""
    # The words are the library's (tensorbuf/spellings.hpp), never restated here.
    for argument, words in module._spellings.items():
        ARGUMENT_TYPES[argument] = "Literal[" + ", ".join(f'"{word}"' for word in words) + "]"
    blocks = [HEADER.rstrip("\n").split("\n")]
    for name, value in vars(module).items():
        if name.startswith("_") and name != "__version__":
            continue
        if name == "__version__":
            blocks.append(["__version__: str"])
        elif isinstance(value, type):
            blocks.append(class_lines(value, module))
        elif callable(value):
            blocks.append(function_lines(name, value.__doc__, module))
        else:
            raise StubError(f"{MODULE}.{name}: a {type(value).__name__}; write_stubs.py knows "
                            f"classes, functions and __version__")
    text = "\n\n".join("\n".join(block) for block in blocks) + "\n"
    ast.parse(text)  # a stub that is not Python never leaves here
    return text


def main(argv):
    if len(argv) > 2:
        sys.exit(__doc__)
    here = pathlib.Path(__file__).resolve().parent
    output = pathlib.Path(argv[1]) if len(argv) == 2 else here / "tensorbuf"
    # python/ (this script's directory) holds the package's sources without the extension:
    # the build tree's package must be the one imported.
    sys.path = [p for p in sys.path if pathlib.Path(p or ".").resolve() != here]
    try:
        module = importlib.import_module(MODULE)
        text = render(module)
    except ImportError as error:
        sys.exit(f"write_stubs.py: cannot import {MODULE} ({error}); set PYTHONPATH to the build "
                 f"tree's python/ directory")
    except StubError as error:
        sys.exit(f"write_stubs.py: {error}")
    output.mkdir(parents=True, exist_ok=True)
    (output / "_tensorbuf.pyi").write_text(text)
    print(f"wrote {output / '_tensorbuf.pyi'}")


if __name__ == "__main__":
    main(sys.argv)
