// Inputs of the distributed scatter tests: every rank's indices and updates from fixed seeds
// (each rank generates all of them, so each can compute the single-process reference).
#pragma once

#include <cmath>
#include <limits>

#include "mpi/helpers.hpp"

namespace tensorbuf::dist::testing {

using SingleOp = TensorBuffer (*)(const TensorBuffer&, const TensorBuffer&, const TensorBuffer&,
                                  const ScatterOptions&);
using DistInPlace = void (*)(ShardedTensor&, const TensorBuffer&, const TensorBuffer&,
                             const ScatterOptions&);
using DistOutOfPlace = ShardedTensor (*)(const ShardedTensor&, const TensorBuffer&,
                                         const TensorBuffer&, const ScatterOptions&);

struct ScatterFns {
  const char* name;
  SingleOp single;
  DistInPlace in_place;
  DistOutOfPlace out_of_place;
};

inline const std::vector<ScatterFns>& scatter_fns() {
  static const std::vector<ScatterFns> fns = {
      {"sub", &tensorbuf::tensor_scatter_nd_sub, &dist::tensor_scatter_nd_sub_in_place,
       &dist::tensor_scatter_nd_sub},
      {"add", &tensorbuf::tensor_scatter_nd_add, &dist::tensor_scatter_nd_add_in_place,
       &dist::tensor_scatter_nd_add},
      {"update", &tensorbuf::tensor_scatter_nd_update, &dist::tensor_scatter_nd_update_in_place,
       &dist::tensor_scatter_nd_update},
      {"min", &tensorbuf::tensor_scatter_nd_min, &dist::tensor_scatter_nd_min_in_place,
       &dist::tensor_scatter_nd_min},
      {"max", &tensorbuf::tensor_scatter_nd_max, &dist::tensor_scatter_nd_max_in_place,
       &dist::tensor_scatter_nd_max},
  };
  return fns;
}

struct ScatterCase {
  DataType dtype = DataType::kFloat32;
  RowLayout layout;
  std::vector<std::int64_t> trailing = {4};  // tensor dims after the first
  int depth = 1;
  bool one_owner = false;  // every row goes to the last rank's rows
  bool nans = false;
  unsigned seed = 1;
};

struct ScatterInputs {
  TensorBuffer full = TensorBuffer::create_dynamic(DataType::kFloat32);  // the global tensor
  std::vector<TensorBuffer> indices;  // per rank, [rows, depth], int64 (int32 for odd seeds)
  std::vector<TensorBuffer> updates;  // per rank
};

// Values that make float sums depend on their order: huge and tiny magnitudes mixed.
inline double order_sensitive_value(std::mt19937_64& rng, bool nans) {
  static constexpr double kValues[] = {1e8, -1e8, 1.0, 0.5, -3.0, 3.25e-3, 7.0, 65504.0};
  if (nans && rng() % 7 == 0) return std::numeric_limits<double>::quiet_NaN();
  return kValues[rng() % 8] * (1.0 + static_cast<double>(rng() % 100) / 1000.0);
}

inline TensorBuffer random_values(std::mt19937_64& rng, const Shape& shape, DataType dtype,
                                  bool nans) {
  std::vector<double> values(static_cast<std::size_t>(shape.num_elements()));
  for (double& v : values) v = order_sensitive_value(rng, nans);
  TensorBuffer f64 = make<double>(shape, values);
  return TensorBuffer::create_from(f64, dtype);
}

inline ScatterInputs generate(const ScatterCase& c) {
  const int ranks = c.layout.ranks();
  const std::int64_t rows = c.layout.rows();
  std::vector<std::int64_t> dims = {rows};
  dims.insert(dims.end(), c.trailing.begin(), c.trailing.end());
  std::mt19937_64 rng(c.seed);
  ScatterInputs in{random_values(rng, Shape(dims), c.dtype, false), {}, {}};
  const std::int64_t lo = c.one_owner ? c.layout.offsets[ranks - 1] : 0;
  for (int q = 0; q < ranks; ++q) {
    std::mt19937_64 rank_rng(c.seed * 1000 + static_cast<unsigned>(q));
    const std::int64_t n = rows == 0 ? 0 : static_cast<std::int64_t>((q * 5 + c.seed) % 9);
    std::vector<std::int64_t> idx;
    for (std::int64_t r = 0; r < n; ++r) {
      // Few distinct rows: duplicates within and across ranks.
      const std::int64_t span = std::max<std::int64_t>(1, std::min<std::int64_t>(rows - lo, 3));
      idx.push_back(lo + static_cast<std::int64_t>(rank_rng() % static_cast<std::uint64_t>(span)));
      for (int d = 1; d < c.depth; ++d) {
        idx.push_back(
            static_cast<std::int64_t>(rank_rng() % static_cast<std::uint64_t>(c.trailing[d - 1])));
      }
    }
    TensorBuffer i64 = make<std::int64_t>(Shape{n, c.depth}, idx);
    in.indices.push_back(c.seed % 2 == 1 ? TensorBuffer::create_from(i64, DataType::kInt32)
                                         : std::move(i64));
    std::vector<std::int64_t> udims = {n};
    udims.insert(udims.end(), c.trailing.begin() + (c.depth - 1), c.trailing.end());
    in.updates.push_back(random_values(rank_rng, Shape(udims), c.dtype, c.nans));
  }
  return in;
}

}  // namespace tensorbuf::dist::testing
