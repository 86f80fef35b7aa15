// The pieces of the NumPy vector files (tests/data/*/vectors.txt) that several tests read: a
// dtype name and an array line "[2,3] 1 2 3 4 5 6" (shape, then the values in row-major order).
#pragma once

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf::testing {

struct ArrayText {
  std::vector<std::int64_t> shape;
  std::vector<double> values;
};

inline DataType parse_dtype(const std::string& name) {
  for (DataType t : {DataType::kBool, DataType::kUInt8, DataType::kInt8, DataType::kInt16,
                     DataType::kInt32, DataType::kInt64, DataType::kFloat16, DataType::kBFloat16,
                     DataType::kFloat32, DataType::kFloat64}) {
    if (to_string(t) == name) return t;
  }
  throw std::runtime_error("unknown dtype " + name);
}

// The rest of `in`: "[2,3] 1 2 3 4 5 6".
inline ArrayText parse_array(std::istringstream& in) {
  ArrayText a;
  std::string shape;
  in >> shape;
  std::istringstream dims(shape.substr(1, shape.size() - 2));
  for (std::string d; std::getline(dims, d, ',');) a.shape.push_back(std::stoll(d));
  for (std::string v; in >> v;) a.values.push_back(std::stod(v));
  return a;
}

}  // namespace tensorbuf::testing
