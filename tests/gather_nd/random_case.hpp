// Random gather_nd cases for the randomized tests: params of rank 1-5 (a few with 2^14+ rows,
// past the CPU backend's single chunk), batch_dims 0-2, depths 1 to the rest of the rank,
// element sizes 1-8, int32 and int64 indices, and bad rows (negative or past the bound) in a
// share of the cases.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf::testing::gathered {

struct RandomCase {
  DataType dtype;
  DataType index_dtype;
  std::vector<std::int64_t> params_shape;
  std::vector<std::int64_t> indices_shape;
  int batch_dims;
  std::vector<std::uint8_t> params;
  std::vector<std::int64_t> indices;  // values, whatever index_dtype
};

inline int random_cases() {
  if (const char* env = std::getenv("TENSORBUF_RANDOM_CASES")) return std::atoi(env);
  return 300;
}

inline RandomCase random_case(std::mt19937_64& rng, bool with_bad_rows) {
  static const DataType kTypes[] = {DataType::kBool,   DataType::kInt8,    DataType::kInt16,
                                    DataType::kInt32,  DataType::kFloat32, DataType::kFloat64,
                                    DataType::kFloat16};
  RandomCase c;
  c.dtype = kTypes[rng() % std::size(kTypes)];
  c.index_dtype = rng() % 2 == 0 ? DataType::kInt32 : DataType::kInt64;
  const bool large = rng() % 10 == 0;
  const int rank = 1 + static_cast<int>(rng() % 5);
  for (int d = 0; d < rank; ++d) {
    const std::uint64_t bound = large ? (d == 0 ? 300 : 3) : 6;
    c.params_shape.push_back(static_cast<std::int64_t>(rng() % bound) + (rng() % 8 == 0 ? 0 : 1));
  }
  c.batch_dims = static_cast<int>(rng() % static_cast<unsigned>(std::min(rank, 3)));
  const int depth = 1 + static_cast<int>(rng() % static_cast<unsigned>(rank - c.batch_dims));
  c.indices_shape.assign(c.params_shape.begin(), c.params_shape.begin() + c.batch_dims);
  std::int64_t batch_rows = 1;
  for (std::int64_t d : c.indices_shape) batch_rows *= d;
  const int extra = static_cast<int>(rng() % 3);
  for (int d = 0; d < extra; ++d) {
    // Large cases: some 20000 rows in all.
    const std::int64_t bound =
        large && d == 0 ? std::max<std::int64_t>(2, 20000 / std::max<std::int64_t>(batch_rows, 1))
                        : 7;
    c.indices_shape.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(bound)));
  }
  c.indices_shape.push_back(depth);
  std::int64_t elements = 1;
  for (std::int64_t d : c.params_shape) elements *= d;
  c.params.resize(static_cast<std::size_t>(elements) * type_size(c.dtype));
  for (auto& byte : c.params) byte = static_cast<std::uint8_t>(rng());
  std::int64_t rows = 1;
  for (std::size_t d = 0; d + 1 < c.indices_shape.size(); ++d) rows *= c.indices_shape[d];
  const double bad_share = with_bad_rows ? std::vector<double>{0, 0.001, 0.2}[rng() % 3] : 0;
  std::bernoulli_distribution bad(bad_share);
  for (std::int64_t r = 0; r < rows; ++r) {
    for (int k = 0; k < depth; ++k) {
      const std::int64_t bound = c.params_shape[static_cast<std::size_t>(c.batch_dims + k)];
      std::int64_t v =
          bound == 0 ? 0 : static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(bound));
      if (bad(rng)) {
        v = rng() % 2 == 0 ? -1 - static_cast<std::int64_t>(rng() % 3)
                           : bound + static_cast<std::int64_t>(rng() % 3);
      }
      c.indices.push_back(v);
    }
  }
  return c;
}

// The indices as a buffer of the case's index dtype.
inline TensorBuffer indices_buffer(const RandomCase& c) {
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

}  // namespace tensorbuf::testing::gathered
