"""The op table's Python surface: every op of every family that claims Python
(include/tensorbuf/op_table.hpp, surface::kPython) is a function of the package, with its
in-place form where the family has one. Fails when a table row claims Python before the module
binds it."""

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
