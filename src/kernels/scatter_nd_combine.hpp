// The per-element logic of the scatter ops, shared by the CPU backend and the CUDA kernels:
// the combine step (core/op_table.hpp's combines) and the row -> slice mapping with its bounds
// check (one unsigned compare per index component).
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/scatter_nd_plan.hpp"
#include "kernels/config.hpp"
#include "tensorbuf/half.hpp"

namespace tensorbuf::kernels {

template <class T>
inline constexpr bool kIsHalfType = std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;

template <class T>
TENSORBUF_HOST_DEVICE inline bool is_nan_value(T v) {
  if constexpr (kIsHalfType<T>) {
    const float f = static_cast<float>(v);
    return f != f;
  } else if constexpr (std::is_floating_point_v<T>) {
    return v != v;
  } else {
    return false;
  }
}

// Integer add/sub/mul wrap (two's complement) without undefined behaviour: computed in the
// unsigned type, at least `unsigned int` wide (a uint16 * uint16 would otherwise promote to a
// signed int and overflow); the conversion back is modular in C++20. float16/bfloat16 round
// back to their own type after every step (their operators compute in float, where the product
// of two 16-bit floats is exact, so a mul rounds once).
template <core::ScatterOp Op>
struct Combine {
  template <class T>
  TENSORBUF_HOST_DEVICE static T apply(T current, T value) {
    using core::ScatterOp;
    if constexpr (Op == ScatterOp::kUpdate) {
      return value;
    } else if constexpr (Op == ScatterOp::kAdd || Op == ScatterOp::kSub || Op == ScatterOp::kMul) {
      if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;
        using Wide = std::conditional_t<(sizeof(U) < sizeof(unsigned int)), unsigned int, U>;
        const auto a = static_cast<Wide>(static_cast<U>(current));
        const auto b = static_cast<Wide>(static_cast<U>(value));
        const Wide r = Op == ScatterOp::kAdd ? a + b : Op == ScatterOp::kSub ? a - b : a * b;
        return static_cast<T>(static_cast<U>(r));
      } else if constexpr (Op == ScatterOp::kMul) {
        return current * value;
      } else {
        return Op == ScatterOp::kAdd ? current + value : current - value;
      }
    } else {
      // NumPy minimum/maximum: a NaN operand wins (the current one first); ties keep current.
      // `picked` is already `current` when `current` is NaN (every compare with NaN is false),
      // so only a NaN `value` against a number needs the second select. In this form a CPU row
      // loop becomes minps + 6 mask operations per 4 floats (the form with int flags took 9
      // and 3 more moves), and the element loop keeps minss with one branch on a NaN `value`,
      // which random data always predicts.
      const bool take = Op == ScatterOp::kMin ? value < current : current < value;
      const T picked = take ? value : current;
      return (is_nan_value(value) && !is_nan_value(current)) ? value : picked;
    }
  }
};

// Index depths up to this are passed to kernels by value; deeper ones through memory.
inline constexpr int kInlineDepth = 8;

// Maps an index row to its slice: slice = sum_d idx[d] * stride[d], after checking
// 0 <= idx[d] < dim[d] with one unsigned compare per component (negatives never wrap).
struct ScatterGeometry {
  int depth = 1;
  std::int64_t slice_size = 0;
  // Filled by make_geometry (no member initializers: their zero fill, a `rep stos` of 136
  // bytes, was 6% of a small CPU scatter call).
  std::int64_t dims[kInlineDepth];
  std::int64_t strides[kInlineDepth];
  const std::int64_t* external = nullptr;  // depth > kInlineDepth: dims[D], then strides[D]

  template <class Index>
  TENSORBUF_HOST_DEVICE bool slice_of(const Index* index, std::int64_t* slice) const {
    if (depth == 1) {
      const auto v = static_cast<std::uint64_t>(static_cast<std::int64_t>(index[0]));
      if (v >= static_cast<std::uint64_t>(dims[0])) return false;
      *slice = static_cast<std::int64_t>(v);
      return true;
    }
    const std::int64_t* bound = depth <= kInlineDepth ? dims : external;
    const std::int64_t* stride = depth <= kInlineDepth ? strides : external + depth;
    std::int64_t sum = 0;
    for (int d = 0; d < depth; ++d) {
      const auto v = static_cast<std::uint64_t>(static_cast<std::int64_t>(index[d]));
      if (v >= static_cast<std::uint64_t>(bound[d])) return false;
      sum += static_cast<std::int64_t>(v) * stride[d];
    }
    *slice = sum;
    return true;
  }
};

// The geometry of a plan; `external` (2 * depth values: dims, then strides) must be set by
// the caller when depth > kInlineDepth.
inline ScatterGeometry make_geometry(const core::ScatterNdPlan& plan) {
  ScatterGeometry geometry;
  geometry.depth = plan.depth;
  geometry.slice_size = plan.slice_size;
  // Every entry written, unused ones as 0.
  for (int d = 0; d < kInlineDepth; ++d) {
    const bool used = d < plan.depth;
    geometry.dims[d] = used ? plan.tensor_dims[static_cast<std::size_t>(d)] : 0;
    geometry.strides[d] = used ? plan.slice_strides[static_cast<std::size_t>(d)] : 0;
  }
  return geometry;
}

// Splits a flat (row, element-of-slice) position; 32-bit division when it fits.
TENSORBUF_HOST_DEVICE inline void split_position(std::int64_t i, std::int64_t slice_size,
                                                 std::int64_t* row, std::int64_t* element) {
  if (slice_size == 1) {
    *row = i;
    *element = 0;
  } else {
    divide(i, slice_size, *row, *element);
  }
}

}  // namespace tensorbuf::kernels
