// Nested Python lists and tuples as a shape and leaves (NumPy's rule: equal lengths at each
// depth).
#pragma once

#include <cstdint>
#include <vector>

#include <pybind11/pybind11.h>

namespace tensorbuf::python {

struct Nested {
  std::vector<std::int64_t> dims;         // () for a lone scalar
  std::vector<pybind11::handle> leaves;   // row-major; borrowed from `value`
};

// InvalidArgumentError (naming `name`) for ragged lists.
Nested flatten_nested(pybind11::handle value, const char* name);

}  // namespace tensorbuf::python
