// The ops of the op table (include/tensorbuf/op_table.hpp), bound by walking the table: each op
// takes the binding its file of python/src/ops/ registers (TENSORBUF_PYTHON_OP, op_binder.hpp:
// the row's inputs' kinds, keywords, C++ calls and docstring; the positional names and whether
// an `_in_place` form exists are the table's). A binding that is not a row of the table does not
// compile; an op that claims Python without exactly one binding fails the import.
#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include "bindings.hpp"
#include "op_binder.hpp"
#include "tensorbuf/op_table.hpp"

namespace tensorbuf::python {

namespace py = pybind11;
using namespace pybind11::literals;
using binder::Binding;

namespace binder {
std::vector<Binding>& registered_bindings() {
  static std::vector<Binding> bindings;
  return bindings;
}
}  // namespace binder

namespace {

const Binding& binding_of(std::string_view name) {
  const Binding* found = nullptr;
  int count = 0;
  for (const Binding& b : binder::registered_bindings()) {
    if (b.name == name) found = &b, ++count;
  }
  if (count != 1) {
    throw std::logic_error("tensorbuf: the op table's " + std::string(name) +
                           " claims surface::kPython but python/src/ops registers " +
                           std::to_string(count) + " bindings of it (TENSORBUF_PYTHON_OP)");
  }
  return *found;
}

}  // namespace

void bind_ops(py::module_& m) {
  // For tests/python/test_op_table.py and test_signatures.py, the op table itself, private; for
  // write_stubs.py, the ops whose result is like their first input (typed _OpResult) and the
  // names of the inputs converted as tensors (typed _ArrayLike).
  py::list families, results;
  py::set tensor_inputs;
  for (const OpFamilyInfo& family : kOpFamilies) {
    const bool python = (family.surfaces & surface::kPython) != 0;
    const std::vector<std::string> inputs = binder::input_names(family.inputs);
    py::list ops;
    for_each_op_name(family, [&](std::string_view name) {
      ops.append(py::str(name));
      if (!python) return;
      const Binding& b = binding_of(name);
      b.bind(m, family, name);
      if (b.result) results.append(py::str(name));
      for (std::size_t i = 0; i < inputs.size(); ++i) {
        if ((b.tensors >> i) & 1u) tensor_inputs.add(py::str(inputs[i]));
      }
    });
    families.append(py::dict("name"_a = py::str(family.name), "ops"_a = ops,
                             "inputs"_a = py::str(family.inputs),
                             "options"_a = py::str(family.options), "in_place"_a = family.in_place,
                             "python"_a = python));
  }
  m.attr("_op_families") = families;
  m.attr("_op_results") = results;
  m.attr("_tensor_inputs") = tensor_inputs;
}

}  // namespace tensorbuf::python
