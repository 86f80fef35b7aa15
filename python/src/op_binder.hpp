// The ops' binder (DESIGN.md, "The op table"): an op is one row (its inputs' kinds, its keywords,
// the C++ call and the in-place call, its docstring) in its own file of python/src/ops/, which
// registers it (TENSORBUF_PYTHON_OP, below); bind registers `name` and, where
// the op table's row has an in-place form, `name_in_place`, with the steps every op takes: the
// keywords into the options, the inputs converted (borrowed where they can be), the caller's
// tb.TensorBuffers locked, the C++ op run without the GIL, the result like the first input
// (result_type.hpp), and the torch tensors written noted (torch_autograd.hpp). The positional
// names are the op table's `inputs`.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // std::optional<int> axis

#include "arguments.hpp"
#include "py_objects.hpp"
#include "result_type.hpp"
#include "tensorbuf/op_table.hpp"
#include "tensorbuf/ops.hpp"  // the ops the rows call
#include "tensorbuf/spellings.hpp"
#include "to_tensor.hpp"
#include "torch_autograd.hpp"

namespace tensorbuf::python::binder {

namespace py = pybind11;

// Keywords: one meaning per name (the option it sets), each with the type pybind11 converts it
// to, its default and its conversion. `kPass` orders the parsing (device first, out_of_bounds
// next, stream last), so that a call with two bad keywords raises the error it always raised.
#define TENSORBUF_KEYWORD(Name, field, Type, pass, default_value, ...)                 \
  struct Name {                                                                        \
    using type = Type;                                                                 \
    static constexpr int kPass = pass;                                                 \
    static py::arg_v arg() { return py::arg(#field) = default_value; }                 \
    static void set(auto& options, Type value) { options.field = __VA_ARGS__(value); } \
  };
namespace kw {
inline Reduction parse_reduction(py::handle word) {
  return parse_spelling<Reduction>(text_of(word), "reduction");
}
// clang-format off
TENSORBUF_KEYWORD(Device, device, py::handle, 0, py::none(), parse_device)
TENSORBUF_KEYWORD(OutOfBounds, out_of_bounds, py::handle, 1, "default", parse_out_of_bounds)
TENSORBUF_KEYWORD(Deterministic, deterministic, bool, 2, false, )
template <int kDefault>
TENSORBUF_KEYWORD(Axis, axis, int, 2, kDefault, )
TENSORBUF_KEYWORD(OptionalAxis, axis, std::optional<int>, 2, py::none(), )  // None: flattened
TENSORBUF_KEYWORD(BatchDims, batch_dims, int, 2, 0, )
TENSORBUF_KEYWORD(Broadcast, broadcast, bool, 2, true, )
TENSORBUF_KEYWORD(ReductionWord, reduction, py::handle, 2, "none", parse_reduction)
TENSORBUF_KEYWORD(Stream, stream, py::handle, 3, py::none(), parse_stream)
// clang-format on
}  // namespace kw
#undef TENSORBUF_KEYWORD

// What one call has converted so far, shared by its inputs.
struct CallState {
  std::string_view function;             // its name, for messages
  Access target_access = Access::kRead;  // the first input's: kWrite in the in-place form
  tensorbuf::Stream stream;
  std::optional<DataType> target_type;  // the first input's dtype, once converted
  std::vector<PyTensorBuffer*> locks;
  const char* numbers = nullptr;  // the first in::Numbers input, and whether it is a sequence
  bool sequences = false;
};

// Inputs, positional. A tensor kind (kTensor) is converted by to_tensor with its access and the
// dtype Python values take; a plain kind (numbers, a dtype) is checked and parsed first, right
// after the keywords (every plain input checked before any is parsed), the tensors then in order.
namespace in {
struct Tensor {  // read, Python values as they come
  using type = py::handle;
  using value = TensorArg;
  static constexpr bool kTensor = true;
  static Access access(const CallState&) { return Access::kRead; }
  static std::optional<DataType> values_as(py::handle, const CallState&) { return std::nullopt; }
};
struct Target : Tensor {  // the first tensor: the result is like it; the in-place form writes it
  static Access access(const CallState& call) { return call.target_access; }
};
using Read = Tensor;
struct Updates : Tensor {  // values (Python's, or an array of another dtype) take the target's
  static std::optional<DataType> values_as(py::handle, const CallState& call) {
    return call.target_type;
  }
};
struct Written : Tensor {  // an output the caller gives
  static Access access(const CallState&) { return Access::kWrite; }
};
struct Float32 : Tensor {  // values are float32 (a scale)
  static std::optional<DataType> values_as(py::handle, const CallState&) {
    return DataType::kFloat32;
  }
};
// A zero point: Python numbers take the target's dtype (the dequantizing op's type constraint) or
// uint8 (the quantizing op's: ONNX's default output type); arrays keep theirs.
template <bool kLikeTarget>
struct ZeroPoint : Tensor {
  static std::optional<DataType> values_as(py::handle object, const CallState& call) {
    if (!is_python_values(object)) return std::nullopt;
    return kLikeTarget ? call.target_type : std::optional(DataType::kUInt8);
  }
};
template <class Type, auto kParse>
struct Plain {
  using type = Type;
  using value = decltype(kParse(std::declval<Type>()));
  static constexpr bool kTensor = false;
  static void check(Type, const char*, CallState&) {}
  static value parse(Type object) { return kParse(object); }
};
inline float as_float(float number) { return number; }  // converted by pybind11 itself
using Number = Plain<float, as_float>;
using DTypeName = Plain<py::handle, parse_dtype>;
// A number, or a sequence of numbers (one per channel): a call's Numbers inputs are all one or
// all the other (TypeError, before any is converted).
struct Numbers {
  using type = py::handle;
  using value = std::variant<float, std::vector<float>>;
  static constexpr bool kTensor = false;
  static bool is_sequence(py::handle object) {
    return py::isinstance<py::sequence>(object) && !py::isinstance<py::str>(object);
  }
  static void check(py::handle object, const char* name, CallState& call) {
    if (call.numbers == nullptr) {
      call.numbers = name;
      call.sequences = is_sequence(object);
    } else if (call.sequences != is_sequence(object)) {
      throw py::type_error(std::string(call.function) + ": " + call.numbers + " and " + name +
                           " must both be numbers or both be sequences");
    }
  }
  static value parse(py::handle object) {
    if (is_sequence(object)) return object.cast<std::vector<float>>();
    return object.cast<float>();
  }
};
}  // namespace in

template <class... Kinds>
struct Inputs {};
template <class... Keys>
struct Keywords {};

using UpdateInputs = Inputs<in::Target, in::Read, in::Updates>;
using ReadInputs = Inputs<in::Target, in::Read>;

inline constexpr const char* kInPlaceDoc =
    "Same, writing into `tensor` itself (a torch tensor, writable NumPy array or "
    "tb.TensorBuffer); on error nothing is written.";

template <class Kind>
using Slot = std::optional<typename Kind::value>;

inline TensorBuffer& value_of(std::optional<TensorArg>& arg) { return arg->get(); }
template <class T>
T& value_of(std::optional<T>& value) {
  return *value;
}

// A call's inputs go through three passes: the plain values checked, then parsed, then the
// tensors converted.
enum Pass { kCheck, kParse, kConvert };

template <class Kind>
void convert(Slot<Kind>& slot, typename Kind::type object, const char* name, CallState& call,
             Pass pass) {
  if constexpr (Kind::kTensor) {
    if (pass != kConvert) return;
    const Access access = Kind::access(call);
    slot.emplace(to_tensor(object, {name, access, Kind::values_as(object, call), call.stream}));
    if (!call.target_type) call.target_type = slot->get().data_type();
    call.locks.push_back(slot->object());
  } else if (pass == kCheck) {
    Kind::check(object, name, call);
  } else if (pass == kParse) {
    slot.emplace(Kind::parse(object));
  }
}

// A torch tensor the call wrote has its version bumped, as torch's own in-place ops do.
template <class Kind>
void note_write(typename Kind::type object, const CallState& call) {
  if constexpr (Kind::kTensor) {
    if (Kind::access(call) == Access::kWrite && is_torch_tensor(object)) note_torch_write(object);
  }
}

// The names in the op table's `inputs` ("tensor, indices, updates").
inline std::vector<std::string> input_names(std::string_view inputs) {
  std::vector<std::string> names;
  for (std::size_t start = 0; start <= inputs.size();) {
    const std::size_t end = std::min(inputs.find(", ", start), inputs.size());
    names.emplace_back(inputs.begin() + start, inputs.begin() + end);
    start = end + 2;
  }
  return names;
}

template <class Options, class InputList, class KeywordList>
struct Form;

// The two forms of an op (the result, the in-place call) over its inputs and keywords.
template <class Options, class... Kinds, class... Keys>
struct Form<Options, Inputs<Kinds...>, Keywords<Keys...>> {
  using Names = std::vector<std::string>;
  using Index = std::index_sequence_for<Kinds...>;
  static constexpr unsigned kTensors = [] {  // bit i: input i is a tensor
    unsigned bits = 0, bit = 1;
    ((bits |= Kinds::kTensor ? bit : 0u, bit <<= 1), ...);
    return bits;
  }();

  template <class Run>
  static constexpr bool returns_result = !std::is_void_v<std::invoke_result_t<
      const Run&, decltype(value_of(std::declval<Slot<Kinds>&>()))..., const Options&>>;

  static Options options_from(typename Keys::type... values) {
    Options options;
    for (int pass = 0; pass < 4; ++pass) {
      ((Keys::kPass == pass ? Keys::set(options, values) : void()), ...);
    }
    return options;
  }

  // One call: the result as `out_type` asks (py::none() for a form without one).
  template <class Run, std::size_t... I>
  static py::object call(const Run& run, std::string_view function, Access target_access,
                         const Names& names, py::handle out_type, std::index_sequence<I...>,
                         typename Kinds::type... objects, typename Keys::type... keywords) {
    const Options options = options_from(keywords...);
    CallState state{function, target_access, options.stream};
    state.locks.reserve(sizeof...(Kinds));
    std::tuple<Slot<Kinds>...> values;
    const std::tuple<typename Kinds::type...> in(objects...);
    for (const Pass pass : {kCheck, kParse, kConvert}) {
      (convert<Kinds>(std::get<I>(values), std::get<I>(in), names[I].c_str(), state, pass), ...);
    }
    BufferLocks locks(std::move(state.locks));
    const auto invoke = [&] {
      py::gil_scoped_release no_gil;
      return run(value_of(std::get<I>(values))..., options);
    };
    if constexpr (returns_result<Run>) {
      return wrap_result(invoke(), std::get<0>(in), out_type);
    } else {
      invoke();
      (note_write<Kinds>(std::get<I>(in), state), ...);
      return py::none();
    }
  }

  // Registers one form: the inputs by name, then the keywords, keyword-only.
  template <class Run, std::size_t... I>
  static void def(py::module_& m, const std::string& name, const Names& names, Access target_access,
                  Run run, const std::string& doc, std::index_sequence<I...> index) {
    if constexpr (returns_result<Run>) {
      m.def(
          name.c_str(),
          [=](typename Kinds::type... objects, typename Keys::type... keywords,
              py::handle out_type) {
            return call(run, name, target_access, names, out_type, index, objects..., keywords...);
          },
          py::arg(names[I].c_str())..., py::kw_only(), Keys::arg()..., py::arg("out_type") = "same",
          (doc + result_doc(names[0])).c_str());
    } else {
      m.def(
          name.c_str(),
          [=](typename Kinds::type... objects, typename Keys::type... keywords) {
            call(run, name, target_access, names, py::none(), index, objects..., keywords...);
          },
          py::arg(names[I].c_str())..., py::kw_only(), Keys::arg()..., doc.c_str());
    }
  }
};

// One op's row. `run` takes the inputs (TensorBuffer& for tensors) and the options, and returns
// the result (or nothing, for an op that writes the outputs it was given); `run_in_place` the
// same, nullptr without an in-place form.
template <class Options, class InputList, class KeywordList, class Run, class RunInPlace>
struct Op {
  using F = Form<Options, InputList, KeywordList>;
  Run run;
  RunInPlace run_in_place;
  const char* doc;
  const char* in_place_doc;

  // Registers the op `name` of the table row `family` and its in-place form.
  void bind(py::module_& m, const OpFamilyInfo& family, std::string_view name) const {
    const std::vector<std::string> names = input_names(family.inputs);
    if (names.size() != F::Index::size()) {
      throw std::logic_error(std::string(name) + ": the op table's inputs are not its binding's");
    }
    F::def(m, std::string(name), names, Access::kRead, run, doc, typename F::Index{});
    if constexpr (!std::is_null_pointer_v<RunInPlace>) {
      F::def(m, std::string(name) + "_in_place", names, Access::kWrite, run_in_place, in_place_doc,
             typename F::Index{});
    }
  }
};

template <class Options, class... Kinds, class... Keys, class Run,
          class RunInPlace = std::nullptr_t>
constexpr auto op(Inputs<Kinds...>, Keywords<Keys...>, Run run, const char* doc,
                  RunInPlace run_in_place = nullptr, const char* in_place_doc = kInPlaceDoc) {
  return Op<Options, Inputs<Kinds...>, Keywords<Keys...>, Run, RunInPlace>{run, run_in_place, doc,
                                                                           in_place_doc};
}

// An op's registered binding, which bind_ops takes when it walks the table: its in-place and
// result forms (held against the table at compile time) and its registration.
struct Binding {
  std::string_view name;
  bool in_place;     // binds `name_in_place`
  bool result;       // returns a result like its first input (m._op_results, write_stubs.py)
  unsigned tensors;  // bit i: the table's input i is a tensor (m._tensor_inputs, write_stubs.py)
  void (*bind)(py::module_& m, const OpFamilyInfo& family, std::string_view name);
};

template <const auto& kOp>
constexpr Binding binding(std::string_view name) {
  using F = typename std::remove_cvref_t<decltype(kOp)>::F;
  return {name, !std::is_null_pointer_v<decltype(kOp.run_in_place)>,
          F::template returns_result<decltype(kOp.run)>, F::kTensors,
          [](py::module_& m, const OpFamilyInfo& family, std::string_view op_name) {
            kOp.bind(m, family, op_name);
          }};
}

// Whether `b` is an op of a table row that claims Python, with that row's in-place form.
consteval bool in_table(const Binding& b) {
  bool found = false;
  for (const OpFamilyInfo& family : kOpFamilies) {
    if ((family.surfaces & surface::kPython) == 0) continue;
    for_each_op_name(family, [&](std::string_view name) {
      found = found || (name == b.name && family.in_place == b.in_place);
    });
  }
  return found;
}

// The bindings of python/src/ops/, registered while the module loads (bind_ops.cpp); each op
// file is linked into the module itself, so no registrar is dropped.
std::vector<Binding>& registered_bindings();
struct Registrar {
  explicit Registrar(const Binding& b) { registered_bindings().push_back(b); }
};

// Registers the op `name` of the table, bound by the row op<Options>(...) above; a binding that
// is not a row's (an op binding itself) is registered by TENSORBUF_PYTHON_BINDING. Both are
// written at file scope: they open the binder's namespace, where the row's names are.
#define TENSORBUF_PYTHON_OP(name, Options, ...)       \
  namespace tensorbuf::python::binder {               \
  constexpr auto k_##name = op<Options>(__VA_ARGS__); \
  }                                                   \
  TENSORBUF_PYTHON_BINDING(name, binding<k_##name>(#name))
#define TENSORBUF_PYTHON_BINDING(name, ...)                                  \
  namespace tensorbuf::python::binder {                                      \
  static_assert(in_table(__VA_ARGS__), #name                                 \
                ": no op of the table that claims surface::kPython, or its " \
                "in-place form is not the table's");                         \
  const Registrar registrar_##name{__VA_ARGS__};                             \
  }

}  // namespace tensorbuf::python::binder
