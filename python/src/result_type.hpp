// Like in, like out (spec/interop.md I3, amended 2026-12-04): the Python type of an out-of-place
// op's result. Every binding that returns a TensorBuffer result calls wrap_result (the op table's
// through op_binder.hpp), so that a new op gets the rule by one call.
#pragma once

#include <string>
#include <string_view>

#include <pybind11/pybind11.h>

#include "tensorbuf/tensor_buffer.hpp"

// The rule, for the docstring of an op whose first tensor argument is `arg` (a literal).
#define TENSORBUF_RESULT_DOC(arg) TENSORBUF_RESULT_DOC_BEFORE arg TENSORBUF_RESULT_DOC_AFTER
#define TENSORBUF_RESULT_DOC_BEFORE ". The result is the type of `"
#define TENSORBUF_RESULT_DOC_AFTER                                                          \
  "` (torch tensor, tb.TensorBuffer, else a NumPy array), without a copy; "                 \
  "out_type=\"tensorbuf\" | \"numpy\" | \"torch\" picks another."

namespace tensorbuf::python {

// TENSORBUF_RESULT_DOC for an argument named at run time (op_binder.hpp: the op table's).
inline std::string result_doc(std::string_view arg) {
  return TENSORBUF_RESULT_DOC_BEFORE + std::string(arg) + TENSORBUF_RESULT_DOC_AFTER;
}

// The words of out_type ("same", "tensorbuf", "numpy", "torch"), for m._spellings.
pybind11::tuple out_type_words();

// `result` as the type `out_type` names: None or "same" picks it after `like` (the op's first
// tensor argument): a torch tensor gives a torch tensor, a tb.TensorBuffer a tb.TensorBuffer, a
// CuPy array a CuPy array, anything else (NumPy arrays, Python scalars and lists, the buffer
// protocol) a NumPy array. Zero-copy, except: a CUDA result asked for as NumPy comes to the host;
// a read-only result asked for as torch is copied (torch has no read-only tensors). "torch"
// imports torch if nobody has. Another word: InvalidArgumentError.
pybind11::object wrap_result(TensorBuffer result, pybind11::handle like, pybind11::handle out_type);

}  // namespace tensorbuf::python
