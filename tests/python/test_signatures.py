"""inspect.signature and help() on every function the extension binds (module functions, methods
and static methods, walked from the module itself, never listed here): the real argument names,
kinds and defaults, the same as pybind11's own signature line in the docstring, which
python/write_stubs.py reads. And the op table's families (include/tensorbuf/op_table.hpp): each
op's inputs and options are its keyword names, with the table's defaults."""

import ast
import inspect
import pydoc
import re

import pytest

import tensorbuf as tb
from tensorbuf import _tensorbuf


def bound_functions():
    """(qualified name, function, is_method) of every function pybind11 bound."""
    out = []
    for name, value in vars(_tensorbuf).items():
        if name.startswith("__"):
            continue
        if isinstance(value, type):
            for member_name, member in vars(value).items():
                if isinstance(member, staticmethod):
                    out.append((f"{name}.{member_name}", member.__func__, False))
                elif type(member).__name__ == "instancemethod":
                    out.append((f"{name}.{member_name}", getattr(value, member_name), True))
        elif callable(value):
            out.append((name, value, False))
    return out


def pybind11_parameters(name, doc):
    """The parameters of pybind11's signature line (the docstring's first line): names, kinds
    and defaults, read with ast as python/write_stubs.py reads them."""
    short = name.rsplit(".", 1)[-1]
    first = doc.split("\n", 1)[0]
    assert first.startswith(short + "("), (name, first)
    signature = first[len(short):]
    function = ast.parse(f"def f{signature}: ...").body[0]
    args = function.args
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    out = []
    for arg, default in zip(args.posonlyargs, defaults):
        out.append((arg.arg, inspect.Parameter.POSITIONAL_ONLY, default))
    for arg, default in zip(args.args, defaults[len(args.posonlyargs):]):
        out.append((arg.arg, inspect.Parameter.POSITIONAL_OR_KEYWORD, default))
    if args.vararg:
        out.append((args.vararg.arg, inspect.Parameter.VAR_POSITIONAL, None))
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        out.append((arg.arg, inspect.Parameter.KEYWORD_ONLY, default))
    if args.kwarg:
        out.append((args.kwarg.arg, inspect.Parameter.VAR_KEYWORD, None))
    return [(n, kind, inspect.Parameter.empty if d is None else ast.literal_eval(d))
            for n, kind, d in out]


FUNCTIONS = bound_functions()


def test_the_walk_found_the_bindings():
    names = {name for name, _, _ in FUNCTIONS}
    assert {"tensor_scatter_nd_add", "gather_nd", "asarray", "TensorBuffer.numpy",
            "TensorBuffer.create_dynamic", "Processor.run"} <= names
    assert len(FUNCTIONS) >= 50


@pytest.mark.parametrize("name,function,is_method", FUNCTIONS, ids=[f[0] for f in FUNCTIONS])
def test_signature_has_the_bound_names_and_defaults(name, function, is_method):
    signature = inspect.signature(function)
    got = [(p.name, p.kind, p.default) for p in signature.parameters.values()]
    expected = pybind11_parameters(name, function.__doc__)
    assert got == expected
    # pybind11 names an argument without py::arg "arg0", "arg1": every binding names them all.
    assert not any(re.fullmatch(r"arg\d+", p) for p, _, _ in got), got


def test_a_bound_method_drops_self():
    buffer = tb.asarray([1.0, 2.0])
    params = list(inspect.signature(buffer.numpy).parameters)
    assert params == list(inspect.signature(tb.TensorBuffer.numpy).parameters)[1:]


def test_help_shows_the_signature():
    text = pydoc.render_doc(tb.tensor_scatter_nd_add, renderer=pydoc.plaintext)
    assert ("tensor_scatter_nd_add(tensor, indices, updates, *, device=None, "
            "out_of_bounds='default', deterministic=False, stream=None, out_type='same')") in text
    signature = inspect.signature(tb.tensor_scatter_nd_add)
    assert signature.parameters["out_of_bounds"].default == "default"
    assert signature.parameters["tensor"].default is inspect.Parameter.empty
    # The call binds as the signature says.
    bound = signature.bind([1, 2], [[0]], [5], deterministic=True)
    assert bound.arguments["deterministic"] is True
    with pytest.raises(TypeError):
        signature.bind([1, 2], [[0]], [5], True)  # keyword-only


def is_table_default(text, default):
    """Whether an op table default ("device default", "false", "0", "none (flattened)", a word)
    spells the Python default."""
    if default is None:
        return text.startswith("none (")  # the table says what no value means
    if isinstance(default, bool):
        return text == str(default).lower()
    if isinstance(default, int):
        return text == str(default)
    return default == ("default" if text == "device default" else text)


def table_rows():
    return [(op, family) for family in _tensorbuf._op_families if family["python"]
            for op in family["ops"]]


@pytest.mark.parametrize("op,family", table_rows(), ids=[r[0] for r in table_rows()])
def test_the_op_tables_options_are_the_keywords(op, family):
    inputs = family["inputs"].split(", ")
    options = [option.split(" = ", 1) for option in family["options"].split(", ") if option]
    for function in [getattr(tb, op)] + ([getattr(tb, op + "_in_place")]
                                          if family["in_place"] else []):
        parameters = inspect.signature(function).parameters
        required = [p for p in parameters.values() if p.default is inspect.Parameter.empty]
        # The inputs in the table's order (substr's Python name for `input` is `strings`).
        assert len(required) == len(inputs), (op, list(parameters))
        for name, default in options:
            assert name in parameters, (op, name)
            assert is_table_default(default, parameters[name].default), (op, name, default)
            assert parameters[name].kind == inspect.Parameter.KEYWORD_ONLY, (op, name)
        # Every op takes the common run options (spec/api.md) as keywords.
        assert {"device", "stream"} <= set(parameters), op
