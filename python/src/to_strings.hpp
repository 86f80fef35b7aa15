// Python objects as StringTensors (spec/interop.md I3, "Strings").
#pragma once

#include <memory>

#include <pybind11/pybind11.h>

#include "tensorbuf/string_tensor.hpp"

namespace tensorbuf::python {

// A tb.StringTensor (shared, no copy), a str or bytes (a scalar), (nested) lists / tuples of
// str and bytes (str encoded as UTF-8), NumPy 'S' arrays (trailing NULs dropped, as NumPy's
// tolist() does), 'U' arrays (UTF-8), object arrays of str / bytes, or anything with
// __arrow_c_array__. InvalidArgumentError / TypeError otherwise.
std::shared_ptr<const StringTensor> to_strings(pybind11::handle object);

// The general path of (nested) lists of str / bytes, without the flat-list fast path: the
// reference of tests/python/test_strings_fast.py and the "before" of its A/B timing
// (tb._tensorbuf._strings_general_path).
StringTensor strings_general_path(pybind11::handle object);

}  // namespace tensorbuf::python
