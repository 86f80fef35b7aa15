#include "nested.hpp"

#include <string>

#include "tensorbuf/errors.hpp"

namespace tensorbuf::python {

namespace {

void collect(pybind11::handle value, std::size_t depth, Nested& out, const char* name) {
  const bool sequence = PyList_Check(value.ptr()) || PyTuple_Check(value.ptr());
  if (!sequence) {
    if (depth != out.dims.size()) {
      throw InvalidArgumentError(std::string(name) + ": ragged nested list (a scalar where a "
                                 "list of " + std::to_string(out.dims[depth]) + " was expected)");
    }
    out.leaves.push_back(value);
    return;
  }
  const auto length = static_cast<std::int64_t>(pybind11::len(value));
  if (depth == out.dims.size() && out.leaves.empty()) {
    out.dims.push_back(length);  // the first path down sets the shape
  } else if (depth >= out.dims.size() || out.dims[depth] != length) {
    throw InvalidArgumentError(std::string(name) + ": ragged nested list (lengths differ at "
                               "depth " + std::to_string(depth) + ")");
  }
  for (pybind11::handle item : value) collect(item, depth + 1, out, name);
}

}  // namespace

Nested flatten_nested(pybind11::handle value, const char* name) {
  Nested out;
  collect(value, 0, out, name);
  return out;
}

}  // namespace tensorbuf::python
