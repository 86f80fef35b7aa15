// The operations: each converts its arguments (borrowing where it can), locks the caller's
// tb.TensorBuffers, and runs the C++ op without the GIL.
#include <optional>
#include <string>

#include <pybind11/pybind11.h>

#include "arguments.hpp"
#include "bindings.hpp"
#include "py_objects.hpp"
#include "result_type.hpp"
#include "to_strings.hpp"
#include "to_tensor.hpp"
#include "torch_autograd.hpp"
#include "tensorbuf/op_table.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf::python {

namespace py = pybind11;
using namespace pybind11::literals;

namespace {

using ScatterOut = TensorBuffer (*)(const TensorBuffer&, const TensorBuffer&, const TensorBuffer&,
                                    const ScatterOptions&);
using ScatterInPlace = void (*)(TensorBuffer&, const TensorBuffer&, const TensorBuffer&,
                                const ScatterOptions&);

struct ScatterArgs {
  ScatterOptions options;
  std::optional<TensorArg> tensor, indices, updates;
};

// Converts the three tensors; updates given as Python values take the tensor's dtype.
ScatterArgs scatter_args(py::handle tensor, py::handle indices, py::handle updates,
                         py::handle device, py::handle out_of_bounds, bool deterministic,
                         py::handle stream, Access tensor_access) {
  ScatterArgs args;
  args.options.device = parse_device(device);
  args.options.out_of_bounds = parse_out_of_bounds(out_of_bounds);
  args.options.deterministic = deterministic;
  args.options.stream = parse_stream(stream);
  args.tensor.emplace(to_tensor(tensor, {"tensor", tensor_access, std::nullopt, args.options.stream}));
  args.indices.emplace(to_tensor(indices, {"indices", Access::kRead, std::nullopt, args.options.stream}));
  args.updates.emplace(to_tensor(updates, {"updates", Access::kRead,
                                           args.tensor->get().data_type(), args.options.stream}));
  return args;
}

void bind_scatter(py::module_& m, const char* name, ScatterOut out, ScatterInPlace in_place,
                  const char* doc) {
  m.def(name, [out](py::handle tensor, py::handle indices, py::handle updates, py::handle device,
                    py::handle out_of_bounds, bool deterministic, py::handle stream,
                    py::handle out_type) {
    ScatterArgs a = scatter_args(tensor, indices, updates, device, out_of_bounds, deterministic,
                                 stream, Access::kRead);
    BufferLocks locks({a.tensor->object(), a.indices->object(), a.updates->object()});
    std::optional<TensorBuffer> result;
    {
      py::gil_scoped_release no_gil;
      result.emplace(out(a.tensor->get(), a.indices->get(), a.updates->get(), a.options));
    }
    return wrap_result(std::move(*result), tensor, out_type);
  }, "tensor"_a, "indices"_a, "updates"_a, py::kw_only(), "device"_a = py::none(),
     "out_of_bounds"_a = "default", "deterministic"_a = false, "stream"_a = py::none(),
     "out_type"_a = "same", doc);
  m.def((std::string(name) + "_in_place").c_str(),
        [in_place](py::handle tensor, py::handle indices, py::handle updates, py::handle device,
                   py::handle out_of_bounds, bool deterministic, py::handle stream) {
    ScatterArgs a = scatter_args(tensor, indices, updates, device, out_of_bounds, deterministic,
                                 stream, Access::kWrite);
    BufferLocks locks({a.tensor->object(), a.indices->object(), a.updates->object()});
    {
      py::gil_scoped_release no_gil;
      in_place(a.tensor->get(), a.indices->get(), a.updates->get(), a.options);
    }
    if (is_torch_tensor(tensor)) note_torch_write(tensor);
  }, "tensor"_a, "indices"_a, "updates"_a, py::kw_only(), "device"_a = py::none(),
     "out_of_bounds"_a = "default", "deterministic"_a = false, "stream"_a = py::none(),
     "Same, writing into `tensor` itself (a torch tensor, writable NumPy array or "
     "tb.TensorBuffer); on error nothing is written.");
}

struct MaskArgs {
  BooleanMaskUpdateOptions options;
  std::optional<TensorArg> tensor, mask, updates;
};

MaskArgs mask_args(py::handle tensor, py::handle mask, py::handle updates, int axis,
                   bool broadcast, py::handle device, py::handle stream, Access tensor_access) {
  MaskArgs args;
  args.options.device = parse_device(device);
  args.options.axis = axis;
  args.options.broadcast = broadcast;
  args.options.stream = parse_stream(stream);
  args.tensor.emplace(to_tensor(tensor, {"tensor", tensor_access, std::nullopt, args.options.stream}));
  args.mask.emplace(to_tensor(mask, {"mask", Access::kRead, std::nullopt, args.options.stream}));
  args.updates.emplace(to_tensor(updates, {"updates", Access::kRead,
                                           args.tensor->get().data_type(), args.options.stream}));
  return args;
}

void bind_boolean_mask_update(py::module_& m) {
  m.def("boolean_mask_update", [](py::handle tensor, py::handle mask, py::handle updates, int axis,
                                  bool broadcast, py::handle device, py::handle stream,
                                  py::handle out_type) {
    MaskArgs a = mask_args(tensor, mask, updates, axis, broadcast, device, stream, Access::kRead);
    BufferLocks locks({a.tensor->object(), a.mask->object(), a.updates->object()});
    std::optional<TensorBuffer> result;
    {
      py::gil_scoped_release no_gil;
      result.emplace(boolean_mask_update(a.tensor->get(), a.mask->get(), a.updates->get(), a.options));
    }
    return wrap_result(std::move(*result), tensor, out_type);
  }, "tensor"_a, "mask"_a, "updates"_a, py::kw_only(), "axis"_a = 0, "broadcast"_a = true,
     "device"_a = py::none(), "stream"_a = py::none(), "out_type"_a = "same",
     "NumPy's out[(slice(None),) * axis + (mask,)] = updates on a copy of tensor"
     TENSORBUF_RESULT_DOC("tensor"));
  m.def("boolean_mask_update_in_place", [](py::handle tensor, py::handle mask, py::handle updates,
                                           int axis, bool broadcast, py::handle device,
                                           py::handle stream) {
    MaskArgs a = mask_args(tensor, mask, updates, axis, broadcast, device, stream, Access::kWrite);
    BufferLocks locks({a.tensor->object(), a.mask->object(), a.updates->object()});
    {
      py::gil_scoped_release no_gil;
      boolean_mask_update_in_place(a.tensor->get(), a.mask->get(), a.updates->get(), a.options);
    }
    if (is_torch_tensor(tensor)) note_torch_write(tensor);
  }, "tensor"_a, "mask"_a, "updates"_a, py::kw_only(), "axis"_a = 0, "broadcast"_a = true,
     "device"_a = py::none(), "stream"_a = py::none(),
     "Same, writing into `tensor` itself; on error nothing is written.");
}

void bind_substr(py::module_& m) {
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

}  // namespace

void bind_ops(py::module_& m) {
#define TENSORBUF_BIND_SCATTER(name, op, what)                                         \
  bind_scatter(m, "tensor_scatter_nd_" #name, &tensor_scatter_nd_##name,               \
               &tensor_scatter_nd_##name##_in_place,                                   \
               "out = tensor; " what TENSORBUF_RESULT_DOC("tensor"));
  TENSORBUF_SCATTER_COMBINES(TENSORBUF_BIND_SCATTER)
#undef TENSORBUF_BIND_SCATTER
  bind_boolean_mask_update(m);
  bind_substr(m);
  // The op table itself, private: tests/python/test_op_table.py checks that every family that
  // claims the Python surface is bound here, test_signatures.py its inputs and options.
  py::list families;
  for (const OpFamilyInfo& family : kOpFamilies) {
    py::list ops;
    for_each_op_name(family, [&](std::string_view name) { ops.append(py::str(name)); });
    families.append(py::dict("name"_a = py::str(family.name), "ops"_a = ops,
                             "inputs"_a = py::str(family.inputs),
                             "options"_a = py::str(family.options),
                             "in_place"_a = family.in_place,
                             "python"_a = (family.surfaces & surface::kPython) != 0));
  }
  m.attr("_op_families") = families;
}

}  // namespace tensorbuf::python
