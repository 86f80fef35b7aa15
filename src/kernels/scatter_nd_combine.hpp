// The per-element logic of the scatter ops, shared by the CPU backend and the CUDA kernels:
// the combine step (core/op_table.hpp's combines); the row -> slice mapping with its bounds
// check is nd_rows.hpp's, shared by the *_nd ops.
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/scatter_nd_plan.hpp"
#include "kernels/config.hpp"
#include "kernels/nd_rows.hpp"
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

// The geometry of a scatter plan (tensor.shape[:D]).
inline ScatterGeometry make_geometry(const core::ScatterNdPlan& plan) {
  return make_geometry(plan.depth, plan.slice_size, plan.tensor_dims.data(),
                       plan.slice_strides.data());
}

}  // namespace tensorbuf::kernels
