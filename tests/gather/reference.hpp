// The reference for gather: ONNX Gather / np.take with tf.gather's batch_dims, written as plain
// loops over full multi-indices on raw bytes (no merged dims, no carriers), independent of the
// library's code. Random cases for the randomized and driver tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf::testing::gathering {

struct Case {
  DataType dtype = DataType::kFloat32;
  DataType index_dtype = DataType::kInt32;
  std::vector<std::int64_t> params_shape;
  std::vector<std::int64_t> indices_shape;
  int axis = 0;  // as passed (may be negative)
  int batch_dims = 0;
  std::vector<std::uint8_t> params;
  std::vector<std::int64_t> indices;  // values, whatever index_dtype
};

struct Expected {
  std::vector<std::int64_t> shape;
  std::vector<std::uint8_t> bytes;  // kDrop's output (zeros for bad indices)
  std::int64_t first_bad = -1;      // the smallest bad position of indices, or -1
  std::string first_bad_text;       // kError's message
};

inline int random_cases() {
  if (const char* env = std::getenv("TENSORBUF_RANDOM_CASES")) return std::atoi(env);
  return 300;
}

inline std::int64_t product(const std::vector<std::int64_t>& dims) {
  std::int64_t p = 1;
  for (std::int64_t d : dims) p *= d;
  return p;
}

// Row-major multi-index of flat position `flat` in `dims`.
inline std::vector<std::int64_t> unravel(std::int64_t flat, const std::vector<std::int64_t>& dims) {
  std::vector<std::int64_t> coords(dims.size());
  for (std::size_t d = dims.size(); d-- > 0;) {
    coords[d] = flat % dims[d];
    flat /= dims[d];
  }
  return coords;
}

inline std::int64_t ravel(const std::vector<std::int64_t>& coords,
                          const std::vector<std::int64_t>& dims) {
  std::int64_t flat = 0;
  for (std::size_t d = 0; d < dims.size(); ++d) flat = flat * dims[d] + coords[d];
  return flat;
}

inline std::string shape_text(const std::vector<std::int64_t>& dims) {
  std::string s = "[";
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (d != 0) s += ',';
    s += std::to_string(dims[d]);
  }
  s += ']';
  return s;
}

// "indices[1,0] = 7 is out of range for axis 1 of shape [3,3]".
inline std::string bad_text(const std::vector<std::int64_t>& indices_shape, std::int64_t position,
                            std::int64_t value, int axis,
                            const std::vector<std::int64_t>& shape) {
  std::string s = "indices";
  if (!indices_shape.empty()) {
    const std::vector<std::int64_t> c = unravel(position, indices_shape);
    s += "[";
    for (std::size_t d = 0; d < c.size(); ++d) {
      if (d != 0) s += ',';
      s += std::to_string(c[d]);
    }
    s += ']';
  }
  s += " = ";
  s += std::to_string(value);
  s += " is out of range for axis ";
  s += std::to_string(axis);
  s += " of shape ";
  s += shape_text(shape);
  return s;
}

inline Expected reference(const Case& c) {
  const int rank = static_cast<int>(c.params_shape.size());
  const int axis = c.axis < 0 ? c.axis + rank : c.axis;
  const int b = c.batch_dims;
  const std::int64_t s = c.params_shape[static_cast<std::size_t>(axis)];
  const std::size_t size = type_size(c.dtype);
  Expected e;
  e.shape.assign(c.params_shape.begin(), c.params_shape.begin() + axis);
  e.shape.insert(e.shape.end(), c.indices_shape.begin() + b, c.indices_shape.end());
  e.shape.insert(e.shape.end(), c.params_shape.begin() + axis + 1, c.params_shape.end());
  for (std::size_t p = 0; p < c.indices.size(); ++p) {
    const std::int64_t v = c.indices[p];
    if (v < -s || v >= s) {
      e.first_bad = static_cast<std::int64_t>(p);
      e.first_bad_text = bad_text(c.indices_shape, e.first_bad, v, axis, c.params_shape);
      break;
    }
  }
  const std::int64_t count = product(e.shape);
  e.bytes.assign(static_cast<std::size_t>(count) * size, 0);
  const int index_rank = static_cast<int>(c.indices_shape.size()) - b;
  for (std::int64_t flat = 0; flat < count; ++flat) {
    const std::vector<std::int64_t> out = unravel(flat, e.shape);
    // indices position: the batch coords (out[:b]), then out[axis : axis + index_rank].
    std::vector<std::int64_t> ipos(out.begin(), out.begin() + b);
    ipos.insert(ipos.end(), out.begin() + axis, out.begin() + axis + index_rank);
    std::int64_t v = c.indices[static_cast<std::size_t>(ravel(ipos, c.indices_shape))];
    if (v < -s || v >= s) continue;  // zeros
    if (v < 0) v += s;
    std::vector<std::int64_t> ppos(out.begin(), out.begin() + axis);
    ppos.push_back(v);
    ppos.insert(ppos.end(), out.begin() + axis + index_rank, out.end());
    const std::int64_t from = ravel(ppos, c.params_shape);
    std::memcpy(e.bytes.data() + static_cast<std::size_t>(flat) * size,
                c.params.data() + static_cast<std::size_t>(from) * size, size);
  }
  return e;
}

// params of rank 1-4 (a tenth with a long axis or many indices, past one CPU chunk), any axis
// (negative half the time), batch_dims 0..min(axis, indices rank), indices of rank 0-3 with
// negative values in range, and bad ones (past either end) in a share of the cases.
inline Case random_case(std::mt19937_64& rng, bool with_bad) {
  static const DataType kTypes[] = {DataType::kBool,    DataType::kInt8,    DataType::kInt16,
                                    DataType::kInt32,   DataType::kFloat32, DataType::kFloat64,
                                    DataType::kFloat16, DataType::kInt64};
  Case c;
  c.dtype = kTypes[rng() % std::size(kTypes)];
  c.index_dtype = rng() % 2 == 0 ? DataType::kInt32 : DataType::kInt64;
  const bool large = rng() % 10 == 0;
  const int rank = 1 + static_cast<int>(rng() % 4);
  for (int d = 0; d < rank; ++d) {
    const std::uint64_t bound = large ? (d == 0 ? 200 : 3) : 5;
    c.params_shape.push_back(static_cast<std::int64_t>(rng() % bound) + (rng() % 10 == 0 ? 0 : 1));
  }
  const int axis = static_cast<int>(rng() % static_cast<unsigned>(rank));
  c.axis = rng() % 2 == 0 ? axis : axis - rank;
  const int extra = static_cast<int>(rng() % 3);
  c.batch_dims = static_cast<int>(rng() % static_cast<unsigned>(axis + 1));
  c.indices_shape.assign(c.params_shape.begin(), c.params_shape.begin() + c.batch_dims);
  for (int d = 0; d < extra; ++d) {
    const std::uint64_t bound = large && d == 0 ? 3000 : 5;
    c.indices_shape.push_back(static_cast<std::int64_t>(rng() % bound));
  }
  c.params.resize(static_cast<std::size_t>(product(c.params_shape)) * type_size(c.dtype));
  for (auto& byte : c.params) byte = static_cast<std::uint8_t>(rng());
  const std::int64_t s = c.params_shape[static_cast<std::size_t>(axis)];
  const double bad_share = with_bad ? std::vector<double>{0, 0.002, 0.2}[rng() % 3] : 0;
  std::bernoulli_distribution bad(bad_share);
  const std::int64_t n = product(c.indices_shape);
  for (std::int64_t p = 0; p < n; ++p) {
    std::int64_t v = s == 0 ? 0 : static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(2 * s)) - s;
    if (bad(rng) || (s == 0 && with_bad)) {
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

}  // namespace tensorbuf::testing::gathering
