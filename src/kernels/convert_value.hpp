// tensor_buffer.md's element conversion (core/convert.hpp's convert_element, rule for rule) in
// host and device code, with the dtypes chosen at run time: one instantiation covers every pair
// of the ten dtypes. An element is loaded into a Value that holds it exactly (an integer or bool
// as int64, a floating element as double), and each rule is a function of that value alone:
//   to float16 / bfloat16:  T(float(v))                 (one float32 rounding, then RNE)
//   to float32 / float64:   static_cast<T>(v)           (one rounding, to nearest even)
//   floating to integer:    NaN -> 0, saturate, truncate toward zero
//   integer to integer:     saturate
//   to bool:                v != 0 (NaN is true);  from bool: any nonzero byte is 1
// So converting through a Value gives convert_element's bits for every pair.
#pragma once

#include <cstdint>

#include "kernels/config.hpp"
#include "tensorbuf/half.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::kernels {

struct Value {
  double f = 0.0;       // the value of a floating element (exact: every floating dtype fits)
  std::int64_t i = 0;   // the value of an integer or bool element
  bool floating = false;
};

TENSORBUF_HOST_DEVICE inline Value integer_value(std::int64_t i) { return {0.0, i, false}; }
TENSORBUF_HOST_DEVICE inline Value floating_value(double f) { return {f, 0, true}; }

// The element `index` of `base`, an array of `type`.
TENSORBUF_HOST_DEVICE inline Value load_value(const void* base, DataType type,
                                              std::int64_t index) {
  switch (type) {
    case DataType::kBool:
      return integer_value(static_cast<const std::uint8_t*>(base)[index] != 0 ? 1 : 0);
    case DataType::kUInt8: return integer_value(static_cast<const std::uint8_t*>(base)[index]);
    case DataType::kInt8: return integer_value(static_cast<const std::int8_t*>(base)[index]);
    case DataType::kInt16: return integer_value(static_cast<const std::int16_t*>(base)[index]);
    case DataType::kInt32: return integer_value(static_cast<const std::int32_t*>(base)[index]);
    case DataType::kInt64: return integer_value(static_cast<const std::int64_t*>(base)[index]);
    case DataType::kFloat16:
      return floating_value(
          detail::half_bits_to_float(static_cast<const std::uint16_t*>(base)[index]));
    case DataType::kBFloat16:
      return floating_value(
          detail::bfloat16_bits_to_float(static_cast<const std::uint16_t*>(base)[index]));
    case DataType::kFloat32: return floating_value(static_cast<const float*>(base)[index]);
    case DataType::kFloat64: return floating_value(static_cast<const double*>(base)[index]);
  }
  return {};
}

// float(v): the float32 conversion (int64 -> float rounds to nearest even, as does double).
TENSORBUF_HOST_DEVICE inline float to_float(const Value& v) {
  return v.floating ? static_cast<float>(v.f) : static_cast<float>(v.i);
}

// v converted to an integer dtype of range [lo, hi].
TENSORBUF_HOST_DEVICE inline std::int64_t saturate(const Value& v, std::int64_t lo,
                                                   std::int64_t hi) {
  if (v.floating) {
    const double d = v.f;
    if (d != d) return 0;  // NaN
    // Both limits are exact in double (powers of two, or small), as in convert_element.
    if (d <= static_cast<double>(lo)) return lo;
    if (d >= static_cast<double>(hi)) return hi;
    return static_cast<std::int64_t>(d);  // truncates toward zero, in range
  }
  return v.i < lo ? lo : (v.i > hi ? hi : v.i);
}

// Stores v converted to `type` as the element `index` of `base`.
TENSORBUF_HOST_DEVICE inline void store_value(void* base, DataType type, std::int64_t index,
                                              const Value& v) {
  switch (type) {
    case DataType::kBool:
      static_cast<std::uint8_t*>(base)[index] = (v.floating ? v.f != 0.0 : v.i != 0) ? 1 : 0;
      return;
    case DataType::kUInt8:
      static_cast<std::uint8_t*>(base)[index] = static_cast<std::uint8_t>(saturate(v, 0, 255));
      return;
    case DataType::kInt8:
      static_cast<std::int8_t*>(base)[index] = static_cast<std::int8_t>(saturate(v, -128, 127));
      return;
    case DataType::kInt16:
      static_cast<std::int16_t*>(base)[index] =
          static_cast<std::int16_t>(saturate(v, -32768, 32767));
      return;
    case DataType::kInt32:
      static_cast<std::int32_t*>(base)[index] =
          static_cast<std::int32_t>(saturate(v, -2147483647ll - 1, 2147483647ll));
      return;
    case DataType::kInt64:
      static_cast<std::int64_t*>(base)[index] =
          saturate(v, -9223372036854775807ll - 1, 9223372036854775807ll);
      return;
    case DataType::kFloat16:
      static_cast<std::uint16_t*>(base)[index] = detail::float_to_half_bits(to_float(v));
      return;
    case DataType::kBFloat16:
      static_cast<std::uint16_t*>(base)[index] = detail::float_to_bfloat16_bits(to_float(v));
      return;
    case DataType::kFloat32:
      static_cast<float*>(base)[index] = to_float(v);
      return;
    case DataType::kFloat64:
      static_cast<double*>(base)[index] = v.floating ? v.f : static_cast<double>(v.i);
      return;
  }
}

// v rounded to `type` as a store and a load would round it (a chain's step boundary).
TENSORBUF_HOST_DEVICE inline Value convert_value(const Value& v, DataType type) {
  alignas(8) unsigned char element[8];
  store_value(element, type, 0, v);
  return load_value(element, type, 0);
}

}  // namespace tensorbuf::kernels
