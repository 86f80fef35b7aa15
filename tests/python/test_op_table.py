"""The op table's Python surface: every op of every family that claims Python
(include/tensorbuf/op_table.hpp, surface::kPython) is a function of the package, with its
in-place form where the family has one. Fails when a table row claims Python before the module
binds it."""

import inspect

import tensorbuf as tb
from tensorbuf import _tensorbuf


def test_every_family_that_claims_python_is_bound():
    checked = 0
    for family in _tensorbuf._op_families:
        if not family["python"]:
            continue
        for name in family["ops"]:
            assert callable(getattr(tb, name, None)), name
            if family["in_place"]:
                assert callable(getattr(tb, name + "_in_place", None)), name + "_in_place"
            checked += 1
    assert checked >= 3  # the table was walked


def test_positional_names_are_the_tables_inputs():
    """The bindings name their positional arguments after the table's `inputs` (bind_ops.cpp
    reads them there), and list the ops whose result is like their first input (_op_results,
    read by python/write_stubs.py)."""
    results = set(_tensorbuf._op_results)
    for family in _tensorbuf._op_families:
        if not family["python"]:
            continue
        inputs = family["inputs"].split(", ")
        if family["name"] == "substr":
            inputs[0] = "strings"  # a tb.StringTensor, its own binder
        for name in family["ops"]:
            for form in [name] + ([name + "_in_place"] if family["in_place"] else []):
                parameters = inspect.signature(getattr(tb, form)).parameters.values()
                positional = [p.name for p in parameters if p.kind == p.POSITIONAL_OR_KEYWORD]
                assert positional == inputs, form
            # An op returns a result like its first input exactly when it takes out_type.
            takes_out_type = "out_type" in inspect.signature(getattr(tb, name)).parameters
            assert (name in results) == takes_out_type, name
    assert {"gather", "tensor_scatter_nd_add", "normalize"} <= results
    assert "substr" not in results and "boolean_mask_into" not in results
