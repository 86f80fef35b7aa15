// The op table (DESIGN.md, "The op table"): every op family declared once, here. A surface (the
// C ABI, Python, the CLI, the bench, the distributed layer, the backends' dispatch) expands
// these lists instead of naming ops one by one; docs/internals.md says what an op author adds.
//
// Plain macros and constexpr data, no CUDA and no backend: kernels, backends and surfaces may
// all include it. Adding a scatter combine = one TENSORBUF_SCATTER_COMBINES line, its functor
// in kernels/scatter_nd_combine.hpp (and atomics), the public declarations (ops.hpp, c_api.h,
// the Fortran module) and its tests.
#pragma once

#include <array>
#include <string_view>

// The combines of tensor_scatter_nd_<name>: X(name, ScatterOp enumerator, what a row does).
// Order is the public order (docs, usage text), not an ABI.
#define TENSORBUF_SCATTER_COMBINES(X)                                       \
  X(sub, kSub, "out[indices[r]] -= updates[r]")                             \
  X(add, kAdd, "out[indices[r]] += updates[r]")                             \
  X(update, kUpdate, "out[indices[r]] = updates[r] (the last row wins)")    \
  X(min, kMin, "out[indices[r]] = min(out[indices[r]], updates[r])")        \
  X(max, kMax, "out[indices[r]] = max(out[indices[r]], updates[r])")

namespace tensorbuf::core {

// The combine step of a scatter: out[slice] op= updates[row].
enum class ScatterOp {
#define TENSORBUF_SCATTER_ENUMERATOR(name, op, what) op,
  TENSORBUF_SCATTER_COMBINES(TENSORBUF_SCATTER_ENUMERATOR)
#undef TENSORBUF_SCATTER_ENUMERATOR
};

// What every surface needs to know about one scatter combine.
struct ScatterCombineInfo {
  ScatterOp op;
  std::string_view suffix;  // "sub"
  std::string_view name;    // "tensor_scatter_nd_sub": the public spelling everywhere
  std::string_view what;    // one line for usage texts and docstrings
};

inline constexpr auto kScatterCombines = std::to_array<ScatterCombineInfo>({
#define TENSORBUF_SCATTER_INFO(name, op, what) \
  {ScatterOp::op, #name, "tensor_scatter_nd_" #name, what},
    TENSORBUF_SCATTER_COMBINES(TENSORBUF_SCATTER_INFO)
#undef TENSORBUF_SCATTER_INFO
});

constexpr const ScatterCombineInfo& scatter_combine(ScatterOp op) {
  for (const ScatterCombineInfo& info : kScatterCombines) {
    if (info.op == op) return info;
  }
  return kScatterCombines[0];  // unreachable: every enumerator comes from the same list
}

// The op families: what each surface offers for each. A form that reads a device value back on
// the host cannot be captured in a CUDA graph; which forms those are is the op's rule
// (core/capture.cpp) and docs/capture.md.
enum class OpFamily { kScatterNd, kBooleanMaskUpdate, kSubstr };

struct OpFamilyInfo {
  OpFamily family;
  std::string_view name;     // the public spelling (scatter: the prefix of each combine's)
  std::string_view inputs;   // in call order
  std::string_view options;  // the option fields between `device` and `stream`, with defaults
  bool in_place;             // has a `_in_place` form
  bool distributed;          // has a row-sharded form (tensorbuf::mpi)
};

inline constexpr auto kOpFamilies = std::to_array<OpFamilyInfo>({
    {OpFamily::kScatterNd, "tensor_scatter_nd", "tensor, indices, updates",
     "out_of_bounds = device default, deterministic = false", true, true},
    {OpFamily::kBooleanMaskUpdate, "boolean_mask_update", "tensor, mask, updates",
     "axis = 0, broadcast = true", true, true},
    {OpFamily::kSubstr, "substr", "input, pos, len",
     "unit = byte, out_of_bounds = device default", false, true},
});

}  // namespace tensorbuf::core
