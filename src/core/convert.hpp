// Element conversions between DataTypes (docs/tensor_buffer.md, "Conversions"): float to
// integer truncates toward zero and saturates (NaN -> 0), integer to narrower integer
// saturates, anything to bool is "nonzero", bool reads as 0/1, 16-bit floats round to
// nearest even. No conversion has undefined behaviour.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

template <class T>
inline constexpr bool kIsHalf = std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;
template <class T>
inline constexpr bool kIsFloating = std::is_floating_point_v<T> || kIsHalf<T>;

// The value of a source element as double (floating) or as itself (integer).
template <class T>
auto widen(T v) {
  if constexpr (kIsHalf<T>) {
    return static_cast<double>(static_cast<float>(v));
  } else {
    return v;
  }
}

template <class To, class From>
To convert_element(From value) {
  if constexpr (kIsFloating<To>) {
    if constexpr (kIsHalf<To>) {
      return To(static_cast<float>(widen(value)));
    } else {
      return static_cast<To>(widen(value));  // int -> float rounds to nearest even
    }
  } else if constexpr (kIsFloating<From>) {
    const double d = static_cast<double>(widen(value));
    if (std::isnan(d)) return To{0};
    // Both limits are exact in double after the cast (powers of two, or small).
    if (d <= static_cast<double>(std::numeric_limits<To>::min())) {
      return std::numeric_limits<To>::min();
    }
    if (d >= static_cast<double>(std::numeric_limits<To>::max())) {
      return std::numeric_limits<To>::max();
    }
    return static_cast<To>(d);  // truncates toward zero, in range
  } else {
    if (std::cmp_less(value, std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
    if (std::cmp_greater(value, std::numeric_limits<To>::max())) {
      return std::numeric_limits<To>::max();
    }
    return static_cast<To>(value);
  }
}

// Converts n elements from `src` (of `src_type`) to `dst` (of `dst_type`); multithreaded for
// large n. Buffers must not overlap.
void convert_buffer(const void* src, DataType src_type, void* dst, DataType dst_type,
                    std::int64_t n);

// convert_buffer's conversion of n elements on the calling thread alone (the fused Processor
// converts cache-sized blocks with it, so that its result is create_from's bit for bit).
void convert_elements(const void* src, DataType src_type, void* dst, DataType dst_type,
                      std::int64_t n);

}  // namespace tensorbuf::core
