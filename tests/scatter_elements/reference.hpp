// The reference for scatter_elements (ONNX ScatterElements / torch scatter_reduce_ with
// include_self): plain loops over the positions of indices in row-major order (or, to mirror
// the host executor's reverse order for the atomic kNone path, in reverse), each combine
// written out here, independent of the library's kernels. Positions address elements through
// the gather_elements reference's full multi-indices.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "gather_elements/reference.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf::testing::scattering {

namespace el = elements;

template <class T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(v);
  } else {
    return false;
  }
}

template <class T>
T combine(Reduction r, T current, T value) {
  switch (r) {
    case Reduction::kNone:
      return value;
    case Reduction::kAdd:
    case Reduction::kMul:
      if constexpr (std::is_integral_v<T>) {
        // Two's complement wrap: through uint64.
        const auto a = static_cast<std::uint64_t>(static_cast<std::int64_t>(current));
        const auto b = static_cast<std::uint64_t>(static_cast<std::int64_t>(value));
        return static_cast<T>(r == Reduction::kAdd ? a + b : a * b);
      } else {
        return r == Reduction::kAdd ? current + value : current * value;
      }
    case Reduction::kMin:
    case Reduction::kMax:
      if (is_nan(current)) return current;
      if (is_nan(value)) return value;
      if (r == Reduction::kMin) return value < current ? value : current;
      return current < value ? value : current;
  }
  return current;
}

// kDrop's result on the tensor's bytes (bad positions skipped); `reverse`: positions from the
// last to the first.
template <class T>
std::vector<std::uint8_t> reference_typed(const el::Case& c, const std::vector<std::uint8_t>& updates,
                                          Reduction r, bool reverse) {
  std::vector<T> out(c.tensor.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), c.tensor.data(), c.tensor.size());
  const auto n = static_cast<std::int64_t>(c.indices.size());
  for (std::int64_t k = 0; k < n; ++k) {
    const std::int64_t p = reverse ? n - 1 - k : k;
    const std::int64_t t = el::target_of(c, p);
    if (t < 0) continue;
    T value;
    std::memcpy(&value, updates.data() + static_cast<std::size_t>(p) * sizeof(T), sizeof(T));
    out[static_cast<std::size_t>(t)] = combine(r, out[static_cast<std::size_t>(t)], value);
  }
  std::vector<std::uint8_t> bytes(c.tensor.size());
  if (!bytes.empty()) std::memcpy(bytes.data(), out.data(), bytes.size());
  return bytes;
}

inline std::vector<std::uint8_t> reference(const el::Case& c,
                                           const std::vector<std::uint8_t>& updates, Reduction r,
                                           bool reverse = false) {
  switch (c.dtype) {
    case DataType::kBool:
    case DataType::kUInt8: return reference_typed<std::uint8_t>(c, updates, r, reverse);
    case DataType::kInt8: return reference_typed<std::int8_t>(c, updates, r, reverse);
    case DataType::kInt16: return reference_typed<std::int16_t>(c, updates, r, reverse);
    case DataType::kInt32: return reference_typed<std::int32_t>(c, updates, r, reverse);
    case DataType::kInt64: return reference_typed<std::int64_t>(c, updates, r, reverse);
    case DataType::kFloat32: return reference_typed<float>(c, updates, r, reverse);
    case DataType::kFloat64: return reference_typed<double>(c, updates, r, reverse);
    default: break;
  }
  return {};
}

// Element bytes of `type` for the random cases: integers anywhere (wrap is tested), floats small
// integers in [-4, 4] (exact sums and products whatever the order), a NaN now and then when
// `with_nan` (min / max: a GPU's add or mul would give its own canonical NaN bits).
inline std::vector<std::uint8_t> random_values(std::mt19937_64& rng, DataType type,
                                               std::size_t count, bool with_nan) {
  const std::size_t size = type_size(type);
  std::vector<std::uint8_t> bytes(count * size);
  for (std::size_t i = 0; i < count; ++i) {
    std::uint8_t* at = bytes.data() + i * size;
    if (type == DataType::kBool) {
      at[0] = static_cast<std::uint8_t>(rng() % 2);
    } else if (type == DataType::kFloat32 || type == DataType::kFloat64) {
      const double v = with_nan && rng() % 50 == 0 ? std::nan("") : static_cast<double>(static_cast<int>(rng() % 9) - 4);
      if (type == DataType::kFloat32) {
        const auto f = static_cast<float>(v);
        std::memcpy(at, &f, 4);
      } else {
        std::memcpy(at, &v, 8);
      }
    } else {
      for (std::size_t k = 0; k < size; ++k) at[k] = static_cast<std::uint8_t>(rng());
    }
  }
  return bytes;
}

inline const std::vector<DataType>& random_types() {
  static const std::vector<DataType> types = {DataType::kBool,  DataType::kInt8,
                                              DataType::kInt16, DataType::kInt32,
                                              DataType::kInt64, DataType::kFloat32,
                                              DataType::kFloat64};
  return types;
}

// A random case with its tensor and updates from random_values, and a reduction (kNone only on
// bool).
struct ScatterCase {
  el::Case c;
  std::vector<std::uint8_t> updates;
  Reduction reduction = Reduction::kNone;
};

inline ScatterCase random_scatter_case(std::mt19937_64& rng, bool with_bad) {
  ScatterCase s;
  s.c = el::random_case(rng, with_bad, random_types());
  static const Reduction kReductions[] = {Reduction::kNone, Reduction::kAdd, Reduction::kMul,
                                          Reduction::kMin, Reduction::kMax};
  s.reduction = s.c.dtype == DataType::kBool ? Reduction::kNone : kReductions[rng() % 5];
  const bool nan = s.reduction == Reduction::kMin || s.reduction == Reduction::kMax;
  s.c.tensor = random_values(rng, s.c.dtype, s.c.tensor.size() / type_size(s.c.dtype), nan);
  s.updates = random_values(rng, s.c.dtype, s.c.indices.size(), nan);
  return s;
}

}  // namespace tensorbuf::testing::scattering
