// Arrow's PyCapsule interface (the C data interface's ArrowSchema / ArrowArray in "arrow_schema"
// and "arrow_array" capsules) for string tensors: import of large_string / large_binary without
// a copy (string / binary with their offsets widened), export as large_binary or large_string.
#pragma once

#include <cstdint>
#include <memory>

#include <pybind11/pybind11.h>

#include "tensorbuf/string_tensor.hpp"

extern "C" {
// The Arrow C data interface's structs (ABI-stable, declared from its specification).
struct ArrowSchema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;
  void (*release)(struct ArrowSchema*);
  void* private_data;
};
struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
  void (*release)(struct ArrowArray*);
  void* private_data;
};
}

namespace tensorbuf::python {

// StringTensor of shape [length] over the array `object.__arrow_c_array__()` returns.
// InvalidArgumentError for other types, nulls, or malformed offsets.
StringTensor import_arrow(pybind11::handle object);

// (schema capsule, array capsule) of the strings, flattened row-major. `requested_schema`: None
// or a schema capsule asking for large_binary ("Z") or large_string ("U").
pybind11::tuple export_arrow(std::shared_ptr<const StringTensor> strings,
                             pybind11::handle requested_schema);

}  // namespace tensorbuf::python
