// substr's Python binding (op_binder.hpp), its own: a tb.StringTensor in and out, and pos and
// len take each other's dtype, whichever is an array.
#include <optional>

#include <pybind11/pybind11.h>

#include "arguments.hpp"
#include "bindings.hpp"
#include "op_binder.hpp"
#include "py_objects.hpp"
#include "to_strings.hpp"
#include "to_tensor.hpp"

namespace tensorbuf::python::binder {

using namespace pybind11::literals;

static void bind_substr(py::module_& m, const OpFamilyInfo&, std::string_view) {
  m.def("substr", [](py::handle strings, py::handle pos, py::handle len, py::handle unit,
                     py::handle out_of_bounds, py::handle device, py::handle stream) {
    SubstrOptions options;
    options.unit = parse_unit(unit);
    options.out_of_bounds = parse_out_of_bounds(out_of_bounds);
    options.device = parse_device(device);
    options.stream = parse_stream(stream);
    std::shared_ptr<const StringTensor> input = to_strings(strings);
    // pos and len share a dtype: Python values take the other argument's when it is an array.
    const bool pos_first = !is_python_values(pos) || is_python_values(len);
    std::optional<TensorArg> first, second;
    first.emplace(to_tensor(pos_first ? pos : len,
                            {pos_first ? "pos" : "len", Access::kRead, std::nullopt, options.stream}));
    second.emplace(to_tensor(pos_first ? len : pos, {pos_first ? "len" : "pos", Access::kRead,
                                                     first->get().data_type(), options.stream}));
    TensorArg& pos_arg = pos_first ? *first : *second;
    TensorArg& len_arg = pos_first ? *second : *first;
    BufferLocks locks({pos_arg.object(), len_arg.object()});
    std::optional<StringTensor> result;
    {
      py::gil_scoped_release no_gil;
      result.emplace(substr(*input, pos_arg.get(), len_arg.get(), options));
    }
    return wrap_strings(std::move(*result));
  }, "strings"_a, "pos"_a, "len"_a, py::kw_only(), "unit"_a = "byte",
     "out_of_bounds"_a = "default", "device"_a = py::none(), "stream"_a = py::none(),
     "TensorFlow's Substr over the broadcast of strings, pos and len (unit 'byte' or "
     "'utf8_char'); a tb.StringTensor.");
}

}  // namespace tensorbuf::python::binder

// No in-place form, no result like an input; pos and len are tensors, strings is none.
TENSORBUF_PYTHON_BINDING(substr, Binding{"substr", false, false, 0b110, &bind_substr})
