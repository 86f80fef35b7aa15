// Random boolean_mask cases for the randomized tests: shapes of rank 1-4 (some past the CPU
// backend's 2^14-entry count blocks), mask ranks and axes (negative too), element sizes 1-8,
// mask densities from none to all, any mask byte values.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf::testing::masked {

struct RandomCase {
  DataType dtype;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> mask_shape;
  int axis;             // normalised
  int axis_as_given;    // may be negative
  std::vector<std::uint8_t> tensor;
  std::vector<std::uint8_t> mask;
};

inline int random_cases() {
  if (const char* env = std::getenv("TENSORBUF_RANDOM_CASES")) return std::atoi(env);
  return 300;
}

inline RandomCase random_case(std::mt19937_64& rng) {
  static const DataType kTypes[] = {DataType::kBool,  DataType::kInt8,    DataType::kInt16,
                                    DataType::kInt32, DataType::kFloat32, DataType::kFloat64,
                                    DataType::kFloat16};
  RandomCase c;
  c.dtype = kTypes[rng() % std::size(kTypes)];
  // One case in 8 is large: rank 1-2, up to 40000 rows (three count blocks), short rows.
  const bool large = rng() % 8 == 0;
  const int rank = 1 + static_cast<int>(rng() % (large ? 2 : 4));
  for (int d = 0; d < rank; ++d) {
    c.shape.push_back(static_cast<std::int64_t>(rng() % (large ? (d == 0 ? 40000 : 4) : 7)));
  }
  const int mask_rank = 1 + static_cast<int>(rng() % static_cast<unsigned>(rank));
  c.axis = static_cast<int>(rng() % static_cast<unsigned>(rank - mask_rank + 1));
  c.axis_as_given = rng() % 2 == 0 ? c.axis : c.axis - rank;
  c.mask_shape.assign(c.shape.begin() + c.axis, c.shape.begin() + c.axis + mask_rank);
  std::int64_t elements = 1, mask_elements = 1;
  for (std::int64_t d : c.shape) elements *= d;
  for (std::int64_t d : c.mask_shape) mask_elements *= d;
  const std::size_t esize = type_size(c.dtype);
  c.tensor.resize(static_cast<std::size_t>(elements) * esize);
  for (auto& b : c.tensor) b = static_cast<std::uint8_t>(rng());
  const double density = std::vector<double>{0, 0.05, 0.5, 0.95, 1}[rng() % 5];
  std::bernoulli_distribution pick(density);
  for (std::int64_t i = 0; i < mask_elements; ++i) {
    c.mask.push_back(pick(rng) ? static_cast<std::uint8_t>(1 + rng() % 255) : 0);
  }
  return c;
}

}  // namespace tensorbuf::testing::masked
