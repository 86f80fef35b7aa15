// Element types, shapes, devices and streams.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "tensorbuf/export.h"
#include "tensorbuf/half.hpp"

namespace tensorbuf {

/// Element type of a TensorBuffer. A bool element is one byte; any nonzero byte reads as true.
enum class DataType { kBool, kUInt8, kInt8, kInt16, kInt32, kInt64,
                      kFloat16, kBFloat16, kFloat32, kFloat64 };

/// Bytes per element: bool and uint8 1, float16 2, float32 4, ...
TENSORBUF_API std::size_t type_size(DataType type);

/// "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
/// "float64".
TENSORBUF_API std::string_view to_string(DataType type);

/// The C++ element type of each DataType, for the typed accessors (`host<T>()` ...).
/// bool elements are accessed as std::uint8_t, never as C++ bool: a byte loaded from the
/// caller may be any value, and reading such a byte as bool is undefined behaviour.
template <class T> struct DataTypeOf;
template <> struct DataTypeOf<std::uint8_t> { static constexpr DataType value = DataType::kUInt8; };
template <> struct DataTypeOf<std::int8_t> { static constexpr DataType value = DataType::kInt8; };
template <> struct DataTypeOf<std::int16_t> { static constexpr DataType value = DataType::kInt16; };
template <> struct DataTypeOf<std::int32_t> { static constexpr DataType value = DataType::kInt32; };
template <> struct DataTypeOf<std::int64_t> { static constexpr DataType value = DataType::kInt64; };
template <> struct DataTypeOf<float16> { static constexpr DataType value = DataType::kFloat16; };
template <> struct DataTypeOf<bfloat16> { static constexpr DataType value = DataType::kBFloat16; };
template <> struct DataTypeOf<float> { static constexpr DataType value = DataType::kFloat32; };
template <> struct DataTypeOf<double> { static constexpr DataType value = DataType::kFloat64; };

/// The dimensions of a tensor, row-major. `Shape{}` is rank 0 (a scalar, one element).
/// Constructors raise InvalidArgumentError for a negative dim or an element count that
/// overflows int64.
class TENSORBUF_API Shape {
 public:
  Shape() = default;
  Shape(std::initializer_list<std::int64_t> dims);
  explicit Shape(std::vector<std::int64_t> dims);

  int rank() const { return static_cast<int>(dims_.size()); }
  const std::vector<std::int64_t>& dims() const { return dims_; }
  std::int64_t operator[](int i) const { return dims_[static_cast<std::size_t>(i)]; }
  /// Product of the dims (1 for rank 0); checked when the shape was built.
  std::int64_t num_elements() const { return num_elements_; }
  /// "[2,3]"; "[]" for a scalar.
  std::string to_string() const;

  friend bool operator==(const Shape& a, const Shape& b) { return a.dims_ == b.dims_; }
  friend bool operator!=(const Shape& a, const Shape& b) { return !(a == b); }

 private:
  std::vector<std::int64_t> dims_;
  std::int64_t num_elements_ = 1;
};

/// Where data lives or an op runs.
struct TENSORBUF_API Device {
  enum class Kind { kCpu, kCuda };
  Kind kind = Kind::kCpu;
  int index = 0;

  static Device cpu() { return Device{Kind::kCpu, 0}; }
  static Device cuda(int index = 0) { return Device{Kind::kCuda, index}; }
  bool is_cuda() const { return kind == Kind::kCuda; }
  friend bool operator==(const Device& a, const Device& b) {
    return a.kind == b.kind && (a.kind == Kind::kCpu || a.index == b.index);
  }
  /// "cpu", "cuda:0".
  std::string to_string() const;
};

/// A caller's cudaStream_t, passed as an opaque handle so these headers need no CUDA header.
/// A null handle means the library's own stream for the device.
struct Stream {
  void* handle = nullptr;
};

/// What to do with an index (or substr position) outside the tensor (string).
/// kDeviceDefault: kError on the CPU, kDrop on CUDA (TensorFlow's behaviour).
enum class OutOfBoundsPolicy { kDeviceDefault, kError, kDrop };

/// Unit of substr's pos and len.
enum class SubstrUnit { kByte, kUtf8Char };

/// Why CUDA can or cannot be used in this process.
enum class CudaAvailability { kAvailable, kNotBuilt, kNoDriver, kDriverTooOld, kNoDevice,
                              kError };

/// Probes once (cached): built with CUDA, a driver recent enough, at least one device.
TENSORBUF_API CudaAvailability cuda_availability();
/// One line for `cuda_availability()`: "available: 1 device(s) (NVIDIA H200)",
/// "not built: tensorbuf was built without CUDA", "no driver: ...".
TENSORBUF_API std::string cuda_availability_reason();
/// True when the library was built with CUDA and a usable device is present.
TENSORBUF_API bool cuda_available();
/// Number of usable CUDA devices (0 where CUDA is unavailable).
TENSORBUF_API int cuda_device_count();

}  // namespace tensorbuf
