// The one run-time type switch: calls f(TypeTag<T>{}) with the C++ element type of a DataType.
// bool and uint8 both map to std::uint8_t (a bool element is a byte; code that must tell them
// apart checks the DataType), so a kernel is instantiated once for the two.
#pragma once

#include <cstdint>
#include <utility>

#include "core/error_macros.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

template <class T>
struct TypeTag {
  using type = T;
};

template <class F>
decltype(auto) dispatch_type(DataType type, F&& f) {
  switch (type) {
    case DataType::kBool:
    case DataType::kUInt8: return f(TypeTag<std::uint8_t>{});
    case DataType::kInt8: return f(TypeTag<std::int8_t>{});
    case DataType::kInt16: return f(TypeTag<std::int16_t>{});
    case DataType::kInt32: return f(TypeTag<std::int32_t>{});
    case DataType::kInt64: return f(TypeTag<std::int64_t>{});
    case DataType::kFloat16: return f(TypeTag<float16>{});
    case DataType::kBFloat16: return f(TypeTag<bfloat16>{});
    case DataType::kFloat32: return f(TypeTag<float>{});
    case DataType::kFloat64: return f(TypeTag<double>{});
  }
  throw InternalError("unknown DataType");
}

// Index tensors: int32 or int64 only.
template <class F>
decltype(auto) dispatch_index_type(DataType type, F&& f) {
  if (type == DataType::kInt32) return f(TypeTag<std::int32_t>{});
  if (type == DataType::kInt64) return f(TypeTag<std::int64_t>{});
  throw InternalError("index dtype must be int32 or int64");
}

}  // namespace tensorbuf::core
