// The ops of the op table (include/tensorbuf/op_table.hpp): one row each, bound by walking
// the table (op_binder.hpp does every op's steps). A row names its inputs' kinds, its keywords in
// their Python order, the C++ calls and the docstring; the positional names and whether an
// `_in_place` form exists are the table's. substr keeps its own binder (below): a
// tb.StringTensor in and out, and pos and len take each other's dtype, whichever is an array.
#include <optional>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include "arguments.hpp"
#include "bindings.hpp"
#include "op_binder.hpp"
#include "py_objects.hpp"
#include "result_type.hpp"
#include "tensorbuf/op_table.hpp"
#include "tensorbuf/ops.hpp"
#include "tensorbuf/processing.hpp"
#include "tensorbuf/quantize_linear.hpp"
#include "to_strings.hpp"
#include "to_tensor.hpp"

namespace tensorbuf::python {

namespace py = pybind11;
using namespace pybind11::literals;
using namespace binder;

namespace {

using UpdateInputs = Inputs<in::Target, in::Read, in::Updates>;
using ReadInputs = Inputs<in::Target, in::Read>;

#define TENSORBUF_SCATTER_ROW(name, op_, what)                                                \
  constexpr auto kScatter_##name = op<ScatterOptions>(                                        \
      UpdateInputs{}, Keywords<kw::Device, kw::OutOfBounds, kw::Deterministic, kw::Stream>{}, \
      &tensor_scatter_nd_##name, "out = tensor; " what, &tensor_scatter_nd_##name##_in_place);
TENSORBUF_SCATTER_COMBINES(TENSORBUF_SCATTER_ROW)
#undef TENSORBUF_SCATTER_ROW

constexpr auto kBooleanMaskUpdate = op<BooleanMaskUpdateOptions>(
    UpdateInputs{}, Keywords<kw::Axis<0>, kw::Broadcast, kw::Device, kw::Stream>{},
    &boolean_mask_update,
    "NumPy's out[(slice(None),) * axis + (mask,)] = updates on a copy of tensor",
    &boolean_mask_update_in_place,
    "Same, writing into `tensor` itself; on error nothing is written.");

constexpr auto kBooleanMask = op<BooleanMaskOptions>(
    ReadInputs{}, Keywords<kw::Axis<0>, kw::Device, kw::Stream>{}, &boolean_mask,
    "NumPy's tensor[(slice(None),) * axis + (mask,)], tf.boolean_mask: the slices where the "
    "bool mask is true, in the mask's row-major order");

constexpr auto kBooleanMaskInto = op<BooleanMaskOptions>(
    Inputs<in::Target, in::Read, in::Written, in::Written>{},
    Keywords<kw::Axis<0>, kw::Device, kw::Stream>{}, &boolean_mask_into,
    "boolean_mask written into the caller's `out` (capacity C along axis) and the true count "
    "n into `count` (int64, one element), with no host wait: the first min(n, C) slices are "
    "written, the rest of out is left as it was; compare count with C.");

constexpr auto kCompress = op<CompressOptions>(
    ReadInputs{}, Keywords<kw::OptionalAxis, kw::Device, kw::Stream>{}, &compress,
    "ONNX Compress / numpy.compress: the slices of input along axis whose entry of the 1-D "
    "bool condition is true (axis None: the flattened input)");

using ProcessKeywords = Keywords<kw::Device, kw::Stream>;

constexpr auto kNormalize = op<ProcessOptions>(
    Inputs<in::Target, in::Numbers, in::Numbers>{}, ProcessKeywords{},
    [](const TensorBuffer& x, const in::Numbers::value& mean, const in::Numbers::value& stddev,
       const ProcessOptions& options) {
      if (mean.index() == 0) return normalize(x, std::get<0>(mean), std::get<0>(stddev), options);
      return normalize(x, std::get<1>(mean), std::get<1>(stddev), options);
    },
    "TFLite Support's NormalizeOp: (float32(x) - mean) / stddev in float32; numbers, or "
    "sequences of one per channel (x's last axis). mean 0 with stddev 1 is the identity "
    "(x's own memory, x's dtype)");

constexpr auto kQuantize =
    op<ProcessOptions>(Inputs<in::Target, in::Number, in::Number>{}, ProcessKeywords{}, &quantize,
                       "TFLite Support's QuantizeOp: normalize(x, -zero_point * scale, scale)");

constexpr auto kDequantize =
    op<ProcessOptions>(Inputs<in::Target, in::Number, in::Number>{}, ProcessKeywords{}, &dequantize,
                       "TFLite Support's DequantizeOp: normalize(x, zero_point, 1 / scale)");

constexpr auto kCast = op<ProcessOptions>(
    Inputs<in::Target, in::DTypeName>{}, ProcessKeywords{}, &tensorbuf::cast,
    "TFLite Support's CastOp for every pair of dtypes (saturating, NaN to 0); x itself when "
    "dtype is x's");

constexpr auto kQuantizeLinear = op<QuantizeLinearOptions>(
    Inputs<in::Target, in::Float32, in::ZeroPoint<false>>{},
    Keywords<kw::Axis<1>, kw::Device, kw::Stream>{}, &quantize_linear,
    "ONNX QuantizeLinear (opset 13): saturate(round_half_even(x / scale) + zero_point) in the "
    "zero point's dtype (a Python number: uint8); per tensor or per axis");

constexpr auto kDequantizeLinear = op<QuantizeLinearOptions>(
    Inputs<in::Target, in::Float32, in::ZeroPoint<true>>{},
    Keywords<kw::Axis<1>, kw::Device, kw::Stream>{}, &dequantize_linear,
    "ONNX DequantizeLinear (opset 13): (float32(x) - zero_point) * scale in float32");

constexpr auto kGatherNd = op<GatherOptions>(
    ReadInputs{}, Keywords<kw::BatchDims, kw::OutOfBounds, kw::Device, kw::Stream>{}, &gather_nd,
    "tf.gather_nd / ONNX GatherND: with b = batch_dims and D = indices.shape[-1], "
    "out[i...] = params[i[:b]..., *indices[i...]], shape indices.shape[:-1] + "
    "params.shape[b+D:]; indices int32/int64, negative components out of range (error, or "
    "zeros with out_of_bounds=\"drop\")");

constexpr auto kGather = op<GatherOptions>(
    ReadInputs{}, Keywords<kw::Axis<0>, kw::BatchDims, kw::OutOfBounds, kw::Device, kw::Stream>{},
    &gather,
    "ONNX Gather / np.take(params, indices, axis) / tf.gather: shape params.shape[:axis] + "
    "indices.shape[batch_dims:] + params.shape[axis+1:] (batch_dims: leading dims shared by "
    "params and indices, tf.gather's); indices int32/int64, -s <= i < 0 means i + s, "
    "anything else outside [0, s) is out of range (error, or zeros with "
    "out_of_bounds=\"drop\")");

constexpr auto kGatherElements = op<GatherOptions>(
    ReadInputs{}, Keywords<kw::Axis<0>, kw::OutOfBounds, kw::Device, kw::Stream>{},
    &gather_elements,
    "ONNX GatherElements / torch.gather / np.take_along_axis: out[p] = params[p with "
    "p[axis] = indices[p]], shape indices.shape (params' rank, indices.shape[d] <= "
    "params.shape[d] off the axis); negative indices and out_of_bounds as gather's");

constexpr auto kScatterElements = op<ScatterElementsOptions>(
    UpdateInputs{},
    Keywords<kw::Axis<0>, kw::ReductionWord, kw::OutOfBounds, kw::Deterministic, kw::Device,
             kw::Stream>{},
    &scatter_elements,
    "ONNX ScatterElements / torch scatter_reduce_(include_self=True): out = tensor; for each "
    "position p of indices in row-major order, out[p with p[axis] = indices[p]] = "
    "combine(that, updates[p]), reduction \"none\" (assign; duplicates: the last wins on "
    "the CPU) | \"add\" | \"mul\" | \"min\" | \"max\"; indices int32/int64 and updates "
    "(tensor's dtype) of one shape, tensor's rank; negative indices and out_of_bounds as "
    "gather's (drop: skipped)",
    &scatter_elements_in_place);

void bind_substr(py::module_& m, const OpFamilyInfo&, std::string_view) {
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

// Every op of the table that claims Python, once; checked against the table below.
// clang-format off
constexpr auto kBindings = std::to_array<Binding>({
#define TENSORBUF_SCATTER_BINDING(name, op_, what) \
  binding<kScatter_##name>("tensor_scatter_nd_" #name),
    TENSORBUF_SCATTER_COMBINES(TENSORBUF_SCATTER_BINDING)
#undef TENSORBUF_SCATTER_BINDING
    binding<kBooleanMaskUpdate>("boolean_mask_update"),
    {"substr", false, false, 0b110, &bind_substr},  // pos, len; strings are no tensor
    binding<kBooleanMask>("boolean_mask"),
    binding<kBooleanMaskInto>("boolean_mask_into"),
    binding<kCompress>("compress"),
    binding<kNormalize>("normalize"),
    binding<kQuantize>("quantize"),
    binding<kDequantize>("dequantize"),
    binding<kCast>("cast"),
    binding<kQuantizeLinear>("quantize_linear"),
    binding<kDequantizeLinear>("dequantize_linear"),
    binding<kGatherNd>("gather_nd"),
    binding<kGather>("gather"),
    binding<kGatherElements>("gather_elements"),
    binding<kScatterElements>("scatter_elements"),
});
// clang-format on

constexpr const Binding* find_binding(std::string_view name) {
  for (const Binding& b : kBindings) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

// Each op of a row that claims Python has a binding, with an in-place form exactly where the
// row has one, and each binding is such an op.
consteval bool bindings_are_the_tables() {
  std::size_t ops = 0;
  bool agree = true;
  for (const OpFamilyInfo& family : kOpFamilies) {
    if ((family.surfaces & surface::kPython) == 0) continue;
    for_each_op_name(family, [&](std::string_view name) {
      const Binding* b = find_binding(name);
      agree = agree && b != nullptr && b->in_place == family.in_place;
      ++ops;
    });
  }
  return agree && ops == kBindings.size();
}
static_assert(bindings_are_the_tables(),
              "an op of the table that claims surface::kPython lacks its row in kBindings, or "
              "its in-place form differs from the table's");

}  // namespace

void bind_ops(py::module_& m) {
  // For tests/python/test_op_table.py and test_signatures.py, the op table itself, private; for
  // write_stubs.py, the ops whose result is like their first input (typed _OpResult) and the
  // names of the inputs converted as tensors (typed _ArrayLike).
  py::list families, results;
  py::set tensor_inputs;
  for (const OpFamilyInfo& family : kOpFamilies) {
    const bool python = (family.surfaces & surface::kPython) != 0;
    const std::vector<std::string> inputs = input_names(family.inputs);
    py::list ops;
    for_each_op_name(family, [&](std::string_view name) {
      ops.append(py::str(name));
      if (!python) return;
      const Binding& b = *find_binding(name);
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
