// Helpers of the boolean_mask_update tests: buffers from values, values and bytes back, and an
// independent serial reference of the op (NumPy's rules written out directly; it shares no
// code with src/kernels or src/cpu).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <vector>

#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf::testing::mask_update {

// A fixed-size buffer of `type` holding `values` (exact for every value the tests use; bool:
// nonzero -> 1).
inline TensorBuffer make(DataType type, const Shape& shape, const std::vector<double>& values) {
  TensorBuffer buffer = TensorBuffer::create_fixed_size(shape, type);
  void* raw = buffer.mutable_host_bytes();
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    switch (type) {
      case DataType::kBool:
        static_cast<std::uint8_t*>(raw)[i] = v != 0 ? 1 : 0;
        break;
      case DataType::kUInt8:
        static_cast<std::uint8_t*>(raw)[i] = static_cast<std::uint8_t>(v);
        break;
      case DataType::kInt8:
        static_cast<std::int8_t*>(raw)[i] = static_cast<std::int8_t>(v);
        break;
      case DataType::kInt16:
        static_cast<std::int16_t*>(raw)[i] = static_cast<std::int16_t>(v);
        break;
      case DataType::kInt32:
        static_cast<std::int32_t*>(raw)[i] = static_cast<std::int32_t>(v);
        break;
      case DataType::kInt64:
        static_cast<std::int64_t*>(raw)[i] = static_cast<std::int64_t>(v);
        break;
      case DataType::kFloat16:
        static_cast<float16*>(raw)[i] = float16(static_cast<float>(v));
        break;
      case DataType::kBFloat16:
        static_cast<bfloat16*>(raw)[i] = bfloat16(static_cast<float>(v));
        break;
      case DataType::kFloat32:
        static_cast<float*>(raw)[i] = static_cast<float>(v);
        break;
      case DataType::kFloat64:
        static_cast<double*>(raw)[i] = v;
        break;
    }
  }
  return buffer;
}

inline TensorBuffer make_f32(const Shape& shape, const std::vector<double>& values) {
  return make(DataType::kFloat32, shape, values);
}

inline TensorBuffer make_mask(const Shape& shape, const std::vector<int>& values) {
  std::vector<double> v(values.begin(), values.end());
  return make(DataType::kBool, shape, v);
}

// A buffer of `type` and `shape` holding raw bytes (any byte values).
inline TensorBuffer from_bytes(DataType type, const Shape& shape,
                               const std::vector<std::uint8_t>& bytes) {
  TensorBuffer buffer = TensorBuffer::create_fixed_size(shape, type);
  if (!bytes.empty()) std::memcpy(buffer.mutable_host_bytes(), bytes.data(), bytes.size());
  return buffer;
}

inline std::vector<double> values(const TensorBuffer& buffer) {
  std::vector<double> out(static_cast<std::size_t>(buffer.flat_size()));
  const void* raw = buffer.host_bytes();
  for (std::size_t i = 0; i < out.size(); ++i) {
    switch (buffer.data_type()) {
      case DataType::kBool:
      case DataType::kUInt8:
        out[i] = static_cast<const std::uint8_t*>(raw)[i];
        break;
      case DataType::kInt8:
        out[i] = static_cast<const std::int8_t*>(raw)[i];
        break;
      case DataType::kInt16:
        out[i] = static_cast<const std::int16_t*>(raw)[i];
        break;
      case DataType::kInt32:
        out[i] = static_cast<const std::int32_t*>(raw)[i];
        break;
      case DataType::kInt64:
        out[i] = static_cast<double>(static_cast<const std::int64_t*>(raw)[i]);
        break;
      case DataType::kFloat16:
        out[i] = static_cast<float>(static_cast<const float16*>(raw)[i]);
        break;
      case DataType::kBFloat16:
        out[i] = static_cast<float>(static_cast<const bfloat16*>(raw)[i]);
        break;
      case DataType::kFloat32:
        out[i] = static_cast<const float*>(raw)[i];
        break;
      case DataType::kFloat64:
        out[i] = static_cast<const double*>(raw)[i];
        break;
    }
  }
  return out;
}

// n random bytes (any values: the op moves bytes).
inline std::vector<std::uint8_t> random_bytes(std::mt19937_64& rng, std::size_t n) {
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

inline std::vector<std::uint8_t> bytes(const TensorBuffer& buffer) {
  std::vector<std::uint8_t> out(buffer.size_bytes());
  if (!out.empty()) std::memcpy(out.data(), buffer.host_bytes(), out.size());
  return out;
}

// The reference: NumPy's out[(slice(None),)*axis + (mask,)] = updates on raw bytes, serial and
// direct (full multi-indices, no merged dims). nullopt when NumPy's broadcasting (or the exact
// check, broadcast = false) rejects the shapes, or the axis / mask shape is invalid.
inline std::optional<std::vector<std::uint8_t>> reference(
    const std::vector<std::uint8_t>& tensor, const std::vector<std::int64_t>& tshape,
    const std::vector<std::uint8_t>& mask, const std::vector<std::int64_t>& mshape,
    const std::vector<std::uint8_t>& updates, const std::vector<std::int64_t>& ushape,
    std::size_t esize, int axis_in, bool broadcast) {
  const int rank = static_cast<int>(tshape.size());
  const int k_rank = static_cast<int>(mshape.size());
  if (k_rank == 0) return std::nullopt;
  int axis = axis_in < 0 ? axis_in + rank : axis_in;
  if (axis < 0 || axis + k_rank > rank) return std::nullopt;
  for (int i = 0; i < k_rank; ++i) {
    if (mshape[static_cast<std::size_t>(i)] != tshape[static_cast<std::size_t>(axis + i)]) {
      return std::nullopt;
    }
  }
  std::int64_t n = 0;
  std::vector<std::int64_t> rank_of(mask.size(), -1);
  for (std::size_t m = 0; m < mask.size(); ++m) {
    if (mask[m] != 0) rank_of[m] = n++;
  }
  std::vector<std::int64_t> target(tshape.begin(), tshape.begin() + axis);
  target.push_back(n);
  target.insert(target.end(), tshape.begin() + axis + k_rank, tshape.end());
  const int trank = static_cast<int>(target.size());
  const int urank = static_cast<int>(ushape.size());
  // updates dim aligned with target dim k, or -1 when absent.
  std::vector<int> align(static_cast<std::size_t>(trank), -1);
  if (broadcast) {
    if (urank > trank) {
      for (int i = 0; i < urank - trank; ++i) {
        if (ushape[static_cast<std::size_t>(i)] != 1) return std::nullopt;
      }
    }
    for (int k = 0; k < trank; ++k) {
      const int ui = k - (trank - urank);
      if (ui < 0) continue;
      const std::int64_t d = ushape[static_cast<std::size_t>(ui)];
      if (d != 1 && d != target[static_cast<std::size_t>(k)]) return std::nullopt;
      align[static_cast<std::size_t>(k)] = ui;
    }
  } else {
    if (ushape != target) return std::nullopt;
    for (int k = 0; k < trank; ++k) align[static_cast<std::size_t>(k)] = k;
  }
  std::vector<std::int64_t> ustrides(static_cast<std::size_t>(urank), 1);
  for (int i = urank - 2; i >= 0; --i) {
    ustrides[static_cast<std::size_t>(i)] =
        ustrides[static_cast<std::size_t>(i + 1)] * ushape[static_cast<std::size_t>(i + 1)];
  }
  std::vector<std::uint8_t> out = tensor;
  std::int64_t total = 1;
  for (std::int64_t d : tshape) total *= d;
  std::vector<std::int64_t> index(static_cast<std::size_t>(rank));
  for (std::int64_t e = 0; e < total; ++e) {
    std::int64_t rest = e;
    for (int d = rank - 1; d >= 0; --d) {
      index[static_cast<std::size_t>(d)] = rest % tshape[static_cast<std::size_t>(d)];
      rest /= tshape[static_cast<std::size_t>(d)];
    }
    std::int64_t m = 0;
    for (int i = 0; i < k_rank; ++i) {
      m = m * mshape[static_cast<std::size_t>(i)] + index[static_cast<std::size_t>(axis + i)];
    }
    if (mask[static_cast<std::size_t>(m)] == 0) continue;
    // Target index: leading, j, trailing.
    std::vector<std::int64_t> tindex(index.begin(), index.begin() + axis);
    tindex.push_back(rank_of[static_cast<std::size_t>(m)]);
    tindex.insert(tindex.end(), index.begin() + axis + k_rank, index.end());
    std::int64_t uoff = 0;
    for (int k = 0; k < trank; ++k) {
      const int ui = align[static_cast<std::size_t>(k)];
      if (ui < 0 || ushape[static_cast<std::size_t>(ui)] == 1) continue;
      uoff += tindex[static_cast<std::size_t>(k)] * ustrides[static_cast<std::size_t>(ui)];
    }
    std::memcpy(out.data() + static_cast<std::size_t>(e) * esize,
                updates.data() + static_cast<std::size_t>(uoff) * esize, esize);
  }
  return out;
}

}  // namespace tensorbuf::testing::mask_update
