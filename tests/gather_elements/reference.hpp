// The reference for gather_elements (ONNX GatherElements / torch.gather), written as plain loops
// over full multi-indices on raw bytes (no merged dims), independent of the library's code, and
// the random cases of the elements ops (scatter_elements' tests use them too).
#pragma once

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gather/reference.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf::testing::elements {

using gathering::bad_text;
using gathering::product;
using gathering::random_cases;
using gathering::ravel;
using gathering::unravel;

struct Case {
  DataType dtype = DataType::kFloat32;
  DataType index_dtype = DataType::kInt32;
  std::vector<std::int64_t> tensor_shape;   // params / tensor
  std::vector<std::int64_t> indices_shape;  // also updates'
  int axis = 0;                             // as passed (may be negative)
  std::vector<std::uint8_t> tensor;
  std::vector<std::int64_t> indices;  // values, whatever index_dtype
};

inline int normal_axis(const Case& c) {
  const int rank = static_cast<int>(c.tensor_shape.size());
  return c.axis < 0 ? c.axis + rank : c.axis;
}

// The flat tensor offset position p addresses, or -1 when its index is out of range.
inline std::int64_t target_of(const Case& c, std::int64_t p) {
  const int axis = normal_axis(c);
  const std::int64_t s = c.tensor_shape[static_cast<std::size_t>(axis)];
  std::int64_t v = c.indices[static_cast<std::size_t>(p)];
  if (v < -s || v >= s) return -1;
  if (v < 0) v += s;
  std::vector<std::int64_t> q = unravel(p, c.indices_shape);
  q[static_cast<std::size_t>(axis)] = v;
  return ravel(q, c.tensor_shape);
}

// The first bad position (or -1) and kError's text for it.
inline std::int64_t first_bad(const Case& c, std::string* text) {
  for (std::size_t p = 0; p < c.indices.size(); ++p) {
    if (target_of(c, static_cast<std::int64_t>(p)) < 0) {
      *text = bad_text(c.indices_shape, static_cast<std::int64_t>(p), c.indices[p], normal_axis(c),
                       c.tensor_shape);
      return static_cast<std::int64_t>(p);
    }
  }
  return -1;
}

// gather_elements under kDrop: indices' shape, zeros for bad indices.
inline std::vector<std::uint8_t> gather_reference(const Case& c) {
  const std::size_t size = type_size(c.dtype);
  std::vector<std::uint8_t> out(c.indices.size() * size, 0);
  for (std::size_t p = 0; p < c.indices.size(); ++p) {
    const std::int64_t t = target_of(c, static_cast<std::int64_t>(p));
    if (t >= 0) std::memcpy(out.data() + p * size, c.tensor.data() + static_cast<std::size_t>(t) * size, size);
  }
  return out;
}

// tensors of rank 1-5 (a tenth large, past one CPU chunk, some of rank 9-10 past the inline
// geometry), any axis (negative half the time), indices no larger than the tensor off the axis
// (often smaller: unmerged dims) and of any size along it, values in [-s, s) and bad ones (past
// either end) in a share of the cases.
inline Case random_case(std::mt19937_64& rng, bool with_bad, const std::vector<DataType>& types) {
  Case c;
  c.dtype = types[rng() % types.size()];
  c.index_dtype = rng() % 2 == 0 ? DataType::kInt32 : DataType::kInt64;
  const bool large = rng() % 10 == 0;
  const bool deep = rng() % 20 == 0;
  const int rank = deep ? 9 + static_cast<int>(rng() % 2) : 1 + static_cast<int>(rng() % 5);
  for (int d = 0; d < rank; ++d) {
    if (deep) {
      c.tensor_shape.push_back(3);  // indices of 2 in every dim: nothing merges
      continue;
    }
    const std::uint64_t bound = large ? (d == 0 ? 3000 : 3) : 5;
    c.tensor_shape.push_back(static_cast<std::int64_t>(rng() % bound) + (rng() % 12 == 0 ? 0 : 1));
  }
  const int axis = static_cast<int>(rng() % static_cast<unsigned>(rank));
  c.axis = rng() % 2 == 0 ? axis : axis - rank;
  for (int d = 0; d < rank; ++d) {
    const std::int64_t t = c.tensor_shape[static_cast<std::size_t>(d)];
    std::int64_t i = 0;
    if (deep) {
      i = 2;
    } else if (d == axis) {
      i = static_cast<std::int64_t>(rng() % 5);
    } else {
      i = rng() % 2 == 0 ? t : static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(t + 1));
    }
    c.indices_shape.push_back(i);
  }
  c.tensor.resize(static_cast<std::size_t>(product(c.tensor_shape)) * type_size(c.dtype));
  for (auto& byte : c.tensor) byte = static_cast<std::uint8_t>(rng());
  const std::int64_t s = c.tensor_shape[static_cast<std::size_t>(axis)];
  const double bad_share = with_bad ? std::vector<double>{0, 0.002, 0.2}[rng() % 3] : 0;
  std::bernoulli_distribution bad(bad_share);
  const std::int64_t n = product(c.indices_shape);
  for (std::int64_t p = 0; p < n; ++p) {
    std::int64_t v =
        s == 0 ? 0 : static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(2 * s)) - s;
    if (bad(rng) || s == 0) {
      v = rng() % 2 == 0 ? -s - 1 - static_cast<std::int64_t>(rng() % 3)
                         : s + static_cast<std::int64_t>(rng() % 3);
    }
    c.indices.push_back(v);
  }
  return c;
}

inline TensorBuffer indices_buffer(const Case& c) {
  TensorBuffer buffer = TensorBuffer::create_fixed_size(Shape(c.indices_shape), c.index_dtype);
  void* raw = buffer.mutable_host_bytes();
  for (std::size_t i = 0; i < c.indices.size(); ++i) {
    if (c.index_dtype == DataType::kInt32) {
      static_cast<std::int32_t*>(raw)[i] = static_cast<std::int32_t>(c.indices[i]);
    } else {
      static_cast<std::int64_t*>(raw)[i] = c.indices[i];
    }
  }
  return buffer;
}

}  // namespace tensorbuf::testing::elements
