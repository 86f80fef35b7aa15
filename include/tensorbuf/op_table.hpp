// The op table (DESIGN.md, "The op table"): every op family declared once, here. Each surface
// (the C ABI, Python, the CLI, the bench, the distributed layer, the backends' dispatch)
// expands these lists instead of naming ops one by one; docs/internals.md says what an op
// author adds. Public so that every surface, inside the library or built on its API, reads the
// same table; plain macros and constexpr data (no CUDA, no backend).
// The dtypes each op takes and whether it can be captured in a CUDA graph: op_traits.hpp, apart
// so that the CUDA sources, which include this file, are not rebuilt when they change.
//
// Adding a scatter combine = one TENSORBUF_SCATTER_COMBINES line, its functor in
// src/kernels/scatter_nd_combine.hpp (and atomics), the public declarations (ops.hpp, and
// c_api.h's four, without which src/c_api does not compile; the Fortran module is generated
// from this list) and its tests.
#pragma once

#include <array>
#include <string_view>

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

// What every surface needs to know about one scatter combine.
struct ScatterCombineInfo {
  std::string_view suffix;  // "sub"
  std::string_view name;    // "tensor_scatter_nd_sub": the public spelling everywhere
  std::string_view what;    // one line for usage texts and docstrings
};

inline constexpr auto kScatterCombines = std::to_array<ScatterCombineInfo>({
#define TENSORBUF_SCATTER_INFO(name, op, what) {#name, "tensor_scatter_nd_" #name, what},
    TENSORBUF_SCATTER_COMBINES(TENSORBUF_SCATTER_INFO)
#undef TENSORBUF_SCATTER_INFO
});

// The op families: what each surface offers for each. Which forms read a device value back on
// the host, and so cannot be captured in a CUDA graph, is each op's rule (docs/capture.md).
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

struct OpFamilyInfo {
  OpFamily family;
  std::string_view name;     // the public spelling (scatter: the prefix of each combine's)
  std::string_view inputs;   // in call order
  std::string_view options;  // the option fields between `device` and `stream`, with defaults
  bool in_place;             // has a `_in_place` form
  bool distributed;          // has a row-sharded form (tensorbuf::mpi)
  unsigned surfaces;         // surface::k* bits
};

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
    {OpFamily::kScatterNd, "tensor_scatter_nd", "tensor, indices, updates",
     "out_of_bounds = device default, deterministic = false", true, true, surface::kAll},
    {OpFamily::kBooleanMaskUpdate, "boolean_mask_update", "tensor, mask, updates",
     "axis = 0, broadcast = true", true, true, surface::kAll},
    {OpFamily::kSubstr, "substr", "input, pos, len",
     "unit = byte, out_of_bounds = device default", false, true, surface::kAll},
    // A family of several ops has a row per op (each reaches its own surfaces).
    {OpFamily::kBooleanMask, "boolean_mask", "tensor, mask", "axis = 0", false, true,
     surface::kC | surface::kCli | surface::kPython | surface::kFortran},
    {OpFamily::kBooleanMask, "boolean_mask_into", "tensor, mask, out, count", "axis = 0", false,
     false, surface::kC | surface::kPython | surface::kFortran | surface::kCli},
    {OpFamily::kBooleanMask, "compress", "input, condition", "axis = none (flattened)", false,
     false, surface::kC | surface::kCli | surface::kPython | surface::kFortran},
    {OpFamily::kProcessing, "normalize", "x, mean, stddev", "", false, false,
     surface::kPython | surface::kCli | surface::kC | surface::kFortran},
    {OpFamily::kProcessing, "quantize", "x, zero_point, scale", "", false, false,
     surface::kPython | surface::kCli | surface::kC | surface::kFortran},
    {OpFamily::kProcessing, "dequantize", "x, zero_point, scale", "", false, false,
     surface::kPython | surface::kCli | surface::kC | surface::kFortran},
    {OpFamily::kProcessing, "cast", "x, dtype", "", false, false,
     surface::kPython | surface::kCli | surface::kC | surface::kFortran},
    {OpFamily::kProcessing, "quantize_linear", "x, scale, zero_point", "axis = 1", false, false,
     surface::kPython | surface::kCli | surface::kC | surface::kFortran},
    {OpFamily::kProcessing, "dequantize_linear", "x, scale, zero_point", "axis = 1", false,
     false, surface::kPython | surface::kCli | surface::kC | surface::kFortran},
    {OpFamily::kGatherNd, "gather_nd", "params, indices",
     "out_of_bounds = device default, batch_dims = 0", false, true, surface::kAll},
    // docs/elements.md.
    {OpFamily::kGather, "gather", "params, indices",
     "out_of_bounds = device default, axis = 0, batch_dims = 0", false, false,
     surface::kAll},
    {OpFamily::kGatherElements, "gather_elements", "params, indices",
     "out_of_bounds = device default, axis = 0", false, false, surface::kAll},
    {OpFamily::kScatterElements, "scatter_elements", "tensor, indices, updates",
     "out_of_bounds = device default, deterministic = false, axis = 0, reduction = none", true,
     false, surface::kAll},
});

}  // namespace tensorbuf
