// Helpers of the scatter_nd tests: building buffers of any dtype from doubles, reading them
// back, comparing bit for bit (NaN == NaN), and an independent serial reference of the op
// (plain loops over the spec's rules; it uses nothing from src/kernels).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/dtype_dispatch.hpp"
#include "core/op_table.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf::testing::scatter {

// The combines as the library lists them (core/op_table.hpp): a new combine joins every list
// below, and the reference's switch stops compiling until it is written out there too.
using Op = core::ScatterOp;

inline std::vector<Op> all_ops() {
  return {
#define TENSORBUF_TEST_SCATTER_OP(name, op, what) Op::op,
      TENSORBUF_SCATTER_COMBINES(TENSORBUF_TEST_SCATTER_OP)
#undef TENSORBUF_TEST_SCATTER_OP
  };
}

// The combines that take numbers only (every one but update, which also takes bool).
inline std::vector<Op> numeric_ops() {
  std::vector<Op> ops = all_ops();
  std::erase(ops, Op::kUpdate);
  return ops;
}

inline const char* op_name(Op op) { return core::scatter_combine(op).suffix.data(); }

using OutOfPlaceFn = TensorBuffer (*)(const TensorBuffer&, const TensorBuffer&, const TensorBuffer&,
                                      const ScatterOptions&);
using InPlaceFn = void (*)(TensorBuffer&, const TensorBuffer&, const TensorBuffer&,
                           const ScatterOptions&);

inline OutOfPlaceFn out_of_place(Op op) {
  switch (op) {
#define TENSORBUF_TEST_SCATTER_FN(name, op, what) \
  case Op::op:                                    \
    return &tensor_scatter_nd_##name;
    TENSORBUF_SCATTER_COMBINES(TENSORBUF_TEST_SCATTER_FN)
#undef TENSORBUF_TEST_SCATTER_FN
  }
  return nullptr;
}

inline InPlaceFn in_place(Op op) {
  switch (op) {
#define TENSORBUF_TEST_SCATTER_FN(name, op, what) \
  case Op::op:                                    \
    return &tensor_scatter_nd_##name##_in_place;
    TENSORBUF_SCATTER_COMBINES(TENSORBUF_TEST_SCATTER_FN)
#undef TENSORBUF_TEST_SCATTER_FN
  }
  return nullptr;
}

// Element i of a buffer as double (integers exactly up to 2^53; the tests stay below).
template <class T>
double to_double(T v) {
  if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
    return static_cast<double>(static_cast<float>(v));
  } else {
    return static_cast<double>(v);
  }
}

template <class T>
T from_double(double v) {
  if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
    return T(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}

// A fixed-size buffer of `type` holding `values` (exact for values the dtype can hold;
// integers given as doubles must be integral and in range).
inline TensorBuffer make(DataType type, const std::vector<double>& values, const Shape& shape) {
  TensorBuffer buffer = TensorBuffer::create_fixed_size(shape, type);
  EXPECT_EQ(static_cast<std::int64_t>(values.size()), shape.num_elements());
  if (values.empty()) return buffer;
  void* bytes = buffer.overwrite_host_bytes();
  core::dispatch_type(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto* out = static_cast<T*>(bytes);
    for (std::size_t i = 0; i < values.size(); ++i) out[i] = from_double<T>(values[i]);
  });
  return buffer;
}

inline TensorBuffer make_indices(const std::vector<std::int64_t>& values, const Shape& shape,
                                 DataType type = DataType::kInt32) {
  TensorBuffer buffer = TensorBuffer::create_fixed_size(shape, type);
  if (values.empty()) return buffer;
  void* bytes = buffer.overwrite_host_bytes();
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (type == DataType::kInt32) {
      static_cast<std::int32_t*>(bytes)[i] = static_cast<std::int32_t>(values[i]);
    } else {
      static_cast<std::int64_t*>(bytes)[i] = values[i];
    }
  }
  return buffer;
}

inline std::vector<double> values_of(const TensorBuffer& buffer) {
  std::vector<double> out(static_cast<std::size_t>(buffer.flat_size()));
  if (out.empty()) return out;
  const void* bytes = buffer.host_bytes();
  core::dispatch_type(buffer.data_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto* in = static_cast<const T*>(bytes);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = to_double(in[i]);
  });
  return out;
}

// The raw bytes of a buffer (bitwise comparisons).
inline std::vector<std::uint8_t> bytes_of(const TensorBuffer& buffer) {
  std::vector<std::uint8_t> out(buffer.size_bytes());
  if (!out.empty()) std::memcpy(out.data(), buffer.host_bytes(), out.size());
  return out;
}

// Bitwise equality, except that any NaN equals any NaN. On mismatch: the first position.
inline ::testing::AssertionResult same_values(const TensorBuffer& actual,
                                              const TensorBuffer& expected) {
  if (actual.data_type() != expected.data_type() || actual.shape() != expected.shape()) {
    return ::testing::AssertionFailure()
           << "dtype/shape " << to_string(actual.data_type()) << actual.shape().to_string()
           << " vs " << to_string(expected.data_type()) << expected.shape().to_string();
  }
  const std::vector<std::uint8_t> a = bytes_of(actual);
  const std::vector<std::uint8_t> b = bytes_of(expected);
  const std::size_t size = actual.type_size();
  const std::vector<double> av = values_of(actual);
  const std::vector<double> bv = values_of(expected);
  for (std::size_t i = 0; i < av.size(); ++i) {
    if (std::isnan(av[i]) && std::isnan(bv[i])) continue;
    if (std::memcmp(a.data() + i * size, b.data() + i * size, size) != 0) {
      return ::testing::AssertionFailure()
             << "element " << i << ": " << av[i] << " vs expected " << bv[i];
    }
  }
  return ::testing::AssertionSuccess();
}

// ---------------------------------------------------------------------------------------------
// The serial reference: the spec's rules written out directly.

struct ReferenceResult {
  std::optional<TensorBuffer> out;  // set unless an error was raised
  std::string error;                // the expected InvalidArgumentError text for a bad row
};

template <class T>
T reference_combine(Op op, T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    // Wraps: compute in 64-bit unsigned, keep the low bits.
    const auto ua = static_cast<std::uint64_t>(static_cast<std::int64_t>(a));
    const auto ub = static_cast<std::uint64_t>(static_cast<std::int64_t>(b));
    switch (op) {
      case Op::kAdd:
        return static_cast<T>(ua + ub);
      case Op::kSub:
        return static_cast<T>(ua - ub);
      case Op::kMul:
        return static_cast<T>(ua * ub);  // the low bits of the 64-bit product
      case Op::kUpdate:
        return b;
      case Op::kMin:
        return b < a ? b : a;
      case Op::kMax:
        return a < b ? b : a;
    }
    return a;
  } else {
    const double x = to_double(a);
    const double y = to_double(b);
    switch (op) {
      case Op::kAdd:
        if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
          return T(static_cast<float>(a) + static_cast<float>(b));  // exact in float, one rounding
        } else {
          return a + b;
        }
      case Op::kSub:
        if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
          return T(static_cast<float>(a) - static_cast<float>(b));
        } else {
          return a - b;
        }
      case Op::kMul:
        if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
          return T(static_cast<float>(a) * static_cast<float>(b));  // exact in float
        } else {
          return a * b;
        }
      case Op::kUpdate:
        return b;
      case Op::kMin:
        if (std::isnan(x)) return a;
        if (std::isnan(y)) return b;
        return y < x ? b : a;
      case Op::kMax:
        if (std::isnan(x)) return a;
        if (std::isnan(y)) return b;
        return x < y ? b : a;
    }
    return a;
  }
}

inline std::string reference_message(const Shape& tensor_shape, const Shape& indices_shape,
                                     std::int64_t row, const std::vector<std::int64_t>& index) {
  std::string text = "indices";
  const int batch = indices_shape.rank() - 1;
  if (batch > 0) {
    std::vector<std::int64_t> pos(static_cast<std::size_t>(batch));
    std::int64_t rest = row;
    for (int i = batch - 1; i >= 0; --i) {
      pos[static_cast<std::size_t>(i)] = rest % indices_shape[i];
      rest /= indices_shape[i];
    }
    text += "[";
    for (int i = 0; i < batch; ++i) {
      if (i) text += ",";
      text += std::to_string(pos[static_cast<std::size_t>(i)]);
    }
    text += "]";
  }
  text += " = [";
  for (std::size_t i = 0; i < index.size(); ++i) {
    if (i) text += ", ";  // appends: g++ 12 warns falsely (-Wrestrict) on "..." + string&&
    text += std::to_string(index[i]);
  }
  return text + "] does not index into shape " + tensor_shape.to_string();
}

// `drop`: skip bad rows; otherwise report the first one.
inline ReferenceResult reference_scatter(Op op, const TensorBuffer& tensor,
                                         const TensorBuffer& indices, const TensorBuffer& updates,
                                         bool drop) {
  const Shape ts = tensor.shape();
  const Shape is = indices.shape();
  const int depth = static_cast<int>(is[is.rank() - 1]);
  std::int64_t rows = 1;
  for (int i = 0; i + 1 < is.rank(); ++i) rows *= is[i];
  std::int64_t slice = 1;
  for (int i = depth; i < ts.rank(); ++i) slice *= ts[i];
  std::vector<std::int64_t> idx(static_cast<std::size_t>(indices.flat_size()));
  for (std::size_t i = 0; i < idx.size(); ++i) {
    idx[i] = indices.data_type() == DataType::kInt32
                 ? static_cast<const std::int32_t*>(indices.host_bytes())[i]
                 : static_cast<const std::int64_t*>(indices.host_bytes())[i];
  }
  ReferenceResult result;
  TensorBuffer out = tensor.clone();
  const std::size_t esize = tensor.type_size();
  std::vector<std::uint8_t> data = bytes_of(tensor);
  const std::vector<std::uint8_t> upd = bytes_of(updates);
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t offset = 0;
    bool good = true;
    std::vector<std::int64_t> comps;
    for (int d = 0; d < depth; ++d) {
      const std::int64_t c = idx[static_cast<std::size_t>(r * depth + d)];
      comps.push_back(c);
      if (c < 0 || c >= ts[d]) good = false;
      offset = offset * ts[d] + c;
    }
    if (!good) {
      if (drop) continue;
      result.error = reference_message(ts, is, r, comps);
      return result;
    }
    core::dispatch_type(tensor.data_type(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (std::int64_t j = 0; j < slice; ++j) {
        T a;
        T b;
        std::memcpy(&a, data.data() + static_cast<std::size_t>(offset * slice + j) * esize, esize);
        std::memcpy(&b, upd.data() + static_cast<std::size_t>(r * slice + j) * esize, esize);
        const T c = reference_combine(op, a, b);
        std::memcpy(data.data() + static_cast<std::size_t>(offset * slice + j) * esize, &c, esize);
      }
    });
  }
  if (!data.empty()) std::memcpy(out.mutable_host_bytes(), data.data(), data.size());
  result.out = std::move(out);
  return result;
}

}  // namespace tensorbuf::testing::scatter
