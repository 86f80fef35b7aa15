// The op table (DESIGN.md, "The op table"): every op family declared once, here. Each surface
// (the C ABI, Python, the CLI, the bench, the distributed layer, the backends' dispatch)
// expands these lists instead of naming ops one by one; docs/internals.md says what an op
// author adds. Public so that every surface, inside the library or built on its API, reads the
// same table; plain macros and constexpr data (no CUDA, no backend). Each row also says what its
// ops take and whether they can be captured in a CUDA graph; tests hold the library to it: each
// op called with every DataType on the CPU (tests/core/test_op_table_dtypes.cpp), and
// src/core/capture's decision for each form (tests/core/test_op_table_capture.cpp).
//
// Adding a scatter combine = one TENSORBUF_SCATTER_COMBINES line (and its name in
// scatter_combine_computes when it only moves values, as update does, so that it keeps bool),
// its functor in src/kernels/scatter_nd_combine.hpp (and atomics), the public declarations (ops.hpp, and
// c_api.h's four, without which src/c_api does not compile; the Fortran module is generated
// from this list) and its tests.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "tensorbuf/types.hpp"

// The combines of tensor_scatter_nd_<name>: X(name, ScatterOp enumerator, what a row does).
// Order is the public order (docs, usage text), not an ABI.
#define TENSORBUF_SCATTER_COMBINES(X)                                                            \
  X(sub, kSub, "out[indices[r]] -= updates[r] (TensorFlow TensorScatterSub)")                    \
  X(add, kAdd, "out[indices[r]] += updates[r] (TensorFlow TensorScatterAdd)")                    \
  X(update, kUpdate,                                                                             \
    "out[indices[r]] = updates[r] (TensorFlow TensorScatterUpdate; the last duplicate wins on "  \
    "the CPU)")                                                                                  \
  X(min, kMin,                                                                                   \
    "out[indices[r]] = min(out[indices[r]], updates[r]) (TensorFlow TensorScatterMin; NaN "      \
    "propagates)")                                                                               \
  X(max, kMax,                                                                                   \
    "out[indices[r]] = max(out[indices[r]], updates[r]) (TensorFlow TensorScatterMax; NaN "      \
    "propagates)")                                                                               \
  X(mul, kMul, "out[indices[r]] *= updates[r] (ONNX ScatterND with reduction mul; integers wrap)")

namespace tensorbuf {

// A set of DataTypes, a bit each (bit i: the enumerator of value i).
namespace dtypes {
constexpr unsigned bit(DataType type) { return 1u << static_cast<unsigned>(type); }
inline constexpr unsigned kNone = 0;  // the input is a StringTensor
inline constexpr unsigned kAll = (1u << (static_cast<unsigned>(DataType::kFloat64) + 1)) - 1;
inline constexpr unsigned kNumeric = kAll & ~bit(DataType::kBool);
inline constexpr unsigned kFloating = bit(DataType::kFloat16) | bit(DataType::kBFloat16) |
                                      bit(DataType::kFloat32) | bit(DataType::kFloat64);
inline constexpr unsigned kIndex = bit(DataType::kInt32) | bit(DataType::kInt64);
constexpr bool contains(unsigned set, DataType type) { return (set & bit(type)) != 0; }
}  // namespace dtypes

// Whether a combine computes with the value it lands on (every one but update, which only
// moves updates in): a combine that computes takes no bool.
constexpr bool scatter_combine_computes(std::string_view suffix) { return suffix != "update"; }

// What every surface needs to know about one scatter combine.
struct ScatterCombineInfo {
  std::string_view suffix;  // "sub"
  std::string_view name;    // "tensor_scatter_nd_sub": the public spelling everywhere
  std::string_view what;    // one line for usage texts and docstrings
  bool computes;            // scatter_combine_computes: its dtypes are the row's less bool
};

inline constexpr auto kScatterCombines = std::to_array<ScatterCombineInfo>({
#define TENSORBUF_SCATTER_INFO(name, op, what) \
  {#name, "tensor_scatter_nd_" #name, what, scatter_combine_computes(#name)},
    TENSORBUF_SCATTER_COMBINES(TENSORBUF_SCATTER_INFO)
#undef TENSORBUF_SCATTER_INFO
});

// The op families: what each surface offers for each.
enum class OpFamily {
  kScatterNd,
  kBooleanMaskUpdate,
  kSubstr,
  kBooleanMask,
  kProcessing,
  kGatherNd,
  kGather,
  kGatherElements,
  kScatterElements
};

// The surfaces besides C++ that bind a family (a bit each). A test walks the table for each
// checked surface and fails when a family claims one it lacks: the C API's error-test table
// (tests/c_api/test_op_table.cpp), the CLI's `run <op> --help` (tests/tools/test_cli.cpp),
// the Python module (tests/python/test_op_table.py) and the Fortran module's procedures
// (fortran/c_constants.cpp, ctest fortran.constants). A family not yet bound on a surface
// leaves its bit out, so the table says where each op reaches users.
namespace surface {
inline constexpr unsigned kC = 1u << 0;
inline constexpr unsigned kPython = 1u << 1;
inline constexpr unsigned kFortran = 1u << 2;
inline constexpr unsigned kCli = 1u << 3;
inline constexpr unsigned kAll = kC | kPython | kFortran | kCli;
}  // namespace surface

// Whether an op's forms can be captured in a CUDA graph (docs/capture.md, "Forms that can be
// captured"): which forms read a device value back on the host is each op's rule, decided by
// src/core/capture on the host before anything is enqueued.
enum class Capture {
  kAlways,       // every form
  kConditional,  // the forms `capture_when` names; the others raise UnavailableError
  kNever         // every form raises UnavailableError in a capture
};

// The dtypes are those of the default options' form (scatter_elements with a reduction other
// than none also rejects bool); the in-place forms take what the out-of-place forms take.
struct OpFamilyInfo {
  OpFamily family;
  std::string_view name;          // the public spelling (scatter: the prefix of each combine's)
  std::string_view inputs;        // in call order
  std::string_view options;       // the option fields between `device` and `stream`, with defaults
  bool in_place;                  // has a `_in_place` form
  bool distributed;               // has a row-sharded form (tensorbuf::mpi)
  unsigned surfaces;              // surface::k* bits
  unsigned dtypes;                // the first input's accepted dtypes (dtypes::k*, bits)
  unsigned index_dtypes;          // those of index_inputs; kNone without them
  std::string_view index_inputs;  // "indices"; substr: "pos, len"
  Capture capture;
  std::string_view capture_when;  // kConditional: the capturable forms, in short
};

// The capture condition of the ops that read indices: their kError forms read back.
inline constexpr std::string_view kDropForms = "out_of_bounds kDrop (not kError)";

// The public names of a family's ops: each scatter combine's, else the family's own.
template <class F>
constexpr void for_each_op_name(const OpFamilyInfo& family, F&& f) {
  if (family.family != OpFamily::kScatterNd) {
    f(family.name);
    return;
  }
  for (const ScatterCombineInfo& combine : kScatterCombines) f(combine.name);
}

inline constexpr auto kOpFamilies = std::to_array<OpFamilyInfo>({
    // Each combine takes these dtypes, less bool where it computes (kScatterCombines).
    {OpFamily::kScatterNd, "tensor_scatter_nd", "tensor, indices, updates",
     "out_of_bounds = device default, deterministic = false", true, true, surface::kAll,
     dtypes::kAll, dtypes::kIndex, "indices", Capture::kConditional, kDropForms},
    {OpFamily::kBooleanMaskUpdate, "boolean_mask_update", "tensor, mask, updates",
     "axis = 0, broadcast = true", true, true, surface::kAll,
     dtypes::kAll, dtypes::kNone, "", Capture::kConditional,
     "updates with no dim of size n (a scalar, one row), or an empty mask"},
    {OpFamily::kSubstr, "substr", "input, pos, len",
     "unit = byte, out_of_bounds = device default", false, true, surface::kAll,
     dtypes::kNone, dtypes::kIndex, "pos, len", Capture::kConditional,
     "out_of_bounds kDrop (not kError), input broadcast at most 4 times"},
    // A family of several ops has a row per op (each reaches its own surfaces).
    {OpFamily::kBooleanMask, "boolean_mask", "tensor, mask", "axis = 0", false, true,
     surface::kC | surface::kCli | surface::kPython | surface::kFortran,
     dtypes::kAll, dtypes::kNone, "", Capture::kNever, ""},
    {OpFamily::kBooleanMask, "boolean_mask_into", "tensor, mask, out, count", "axis = 0", false,
     false, surface::kC | surface::kPython | surface::kFortran | surface::kCli,
     dtypes::kAll, dtypes::kNone, "", Capture::kAlways, ""},
    {OpFamily::kBooleanMask, "compress", "input, condition", "axis = none (flattened)", false,
     false, surface::kC | surface::kCli | surface::kPython | surface::kFortran,
     dtypes::kAll, dtypes::kNone, "", Capture::kNever, ""},
    {OpFamily::kProcessing, "normalize", "x, mean, stddev", "", false, false,
     surface::kPython | surface::kCli | surface::kC | surface::kFortran,
     dtypes::kAll, dtypes::kNone, "", Capture::kAlways, ""},
    {OpFamily::kProcessing, "quantize", "x, zero_point, scale", "", false, false,
     surface::kPython | surface::kCli | surface::kC | surface::kFortran,
     dtypes::kAll, dtypes::kNone, "", Capture::kAlways, ""},
    {OpFamily::kProcessing, "dequantize", "x, zero_point, scale", "", false, false,
     surface::kPython | surface::kCli | surface::kC | surface::kFortran,
     dtypes::kAll, dtypes::kNone, "", Capture::kAlways, ""},
    {OpFamily::kProcessing, "cast", "x, dtype", "", false, false,
     surface::kPython | surface::kCli | surface::kC | surface::kFortran,
     dtypes::kAll, dtypes::kNone, "", Capture::kAlways, ""},
    {OpFamily::kProcessing, "quantize_linear", "x, scale, zero_point", "axis = 1", false, false,
     surface::kPython | surface::kCli | surface::kC | surface::kFortran,
     dtypes::kFloating | dtypes::bit(DataType::kInt32), dtypes::kNone, "",
     Capture::kConditional, "scale and zero_point valid on the host"},
    {OpFamily::kProcessing, "dequantize_linear", "x, scale, zero_point", "axis = 1", false,
     false, surface::kPython | surface::kCli | surface::kC | surface::kFortran,
     dtypes::bit(DataType::kUInt8) | dtypes::bit(DataType::kInt8) |
         dtypes::bit(DataType::kInt16) | dtypes::bit(DataType::kInt32),
     dtypes::kNone, "", Capture::kConditional, "scale and zero_point valid on the host"},
    {OpFamily::kGatherNd, "gather_nd", "params, indices",
     "out_of_bounds = device default, batch_dims = 0", false, true, surface::kAll,
     dtypes::kAll, dtypes::kIndex, "indices", Capture::kConditional, kDropForms},
    // docs/elements.md.
    {OpFamily::kGather, "gather", "params, indices",
     "out_of_bounds = device default, axis = 0, batch_dims = 0", false, false, surface::kAll,
     dtypes::kAll, dtypes::kIndex, "indices", Capture::kConditional, kDropForms},
    {OpFamily::kGatherElements, "gather_elements", "params, indices",
     "out_of_bounds = device default, axis = 0", false, false, surface::kAll,
     dtypes::kAll, dtypes::kIndex, "indices", Capture::kConditional, kDropForms},
    {OpFamily::kScatterElements, "scatter_elements", "tensor, indices, updates",
     "out_of_bounds = device default, deterministic = false, axis = 0, reduction = none", true,
     false, surface::kAll,
     dtypes::kAll, dtypes::kIndex, "indices", Capture::kConditional, kDropForms},
});

// One op of the table, its row's fields resolved for it (a scatter combine: its dtypes).
struct OpTraits {
  std::string_view name;       // as for_each_op_name gives it (scatter: each combine's name)
  const OpFamilyInfo* family;  // its row
  unsigned dtypes;
  unsigned index_dtypes;
  std::string_view index_inputs;
  Capture capture;
  std::string_view capture_when;
};

namespace detail {

constexpr OpTraits op_traits_of(const OpFamilyInfo& family, std::string_view name) {
  OpTraits traits{name, &family, family.dtypes, family.index_dtypes, family.index_inputs,
                  family.capture, family.capture_when};
  for (const ScatterCombineInfo& combine : kScatterCombines) {
    const bool of_this_op = family.family == OpFamily::kScatterNd && combine.name == name;
    if (of_this_op && combine.computes) traits.dtypes &= dtypes::kNumeric;
  }
  return traits;
}

constexpr std::size_t op_count() {
  std::size_t n = 0;
  for (const OpFamilyInfo& family : kOpFamilies) for_each_op_name(family, [&](auto) { ++n; });
  return n;
}

constexpr std::array<OpTraits, op_count()> every_op_traits() {
  std::array<OpTraits, op_count()> ops{};
  std::size_t i = 0;
  for (const OpFamilyInfo& family : kOpFamilies) {
    for_each_op_name(family, [&](std::string_view name) { ops[i++] = op_traits_of(family, name); });
  }
  return ops;
}

}  // namespace detail

// Every public op, in table order: derived from kOpFamilies, not declared.
inline constexpr std::array<OpTraits, detail::op_count()> kOpTraits =
    detail::every_op_traits();

// The traits of the op named `name`; null when the table has no such op.
constexpr const OpTraits* find_op_traits(std::string_view name) {
  for (const OpTraits& traits : kOpTraits) {
    if (traits.name == name) return &traits;
  }
  return nullptr;
}

// The place of an op, or of a family's first op, in the table's order (its index in
// kOpTraits); kOpTraits.size() when `name` names neither. The surfaces that gather per-op pieces
// registered by the ops' own files (the CLI's example groups, the bench's sweep areas) list them
// in this order.
constexpr std::size_t op_order(std::string_view name) {
  for (std::size_t i = 0; i < kOpTraits.size(); ++i) {
    if (kOpTraits[i].name == name || kOpTraits[i].family->name == name) return i;
  }
  return kOpTraits.size();
}
static_assert(op_order("tensor_scatter_nd") == 0 && op_order("no such op") == kOpTraits.size());

}  // namespace tensorbuf
