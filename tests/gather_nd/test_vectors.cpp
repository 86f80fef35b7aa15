// gather_nd against NumPy: the cases of tests/data/gather_nd/vectors.txt (written by generate.py
// beside it), on every device, under both policies.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "support/devices.hpp"
#include "support/vector_text.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::ArrayText;
using testing::mask_update::make;
using testing::mask_update::values;

struct VectorCase {
  std::string name;
  DataType dtype = DataType::kFloat32;
  DataType index_dtype = DataType::kInt64;
  int batch_dims = 0;
  OutOfBoundsPolicy policy = OutOfBoundsPolicy::kError;
  ArrayText params, indices, expected;
  bool expect_error = false;
};

std::vector<VectorCase> load_cases() {
  const std::string path = std::string(TENSORBUF_TEST_DATA_DIR) + "/gather_nd/vectors.txt";
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot open " + path);
  std::vector<VectorCase> cases;
  VectorCase current;
  for (std::string line; std::getline(file, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    std::string key, word;
    in >> key;
    if (key == "case") {
      current = VectorCase{};
      in >> current.name;
    } else if (key == "dtype") {
      in >> word;
      current.dtype = testing::parse_dtype(word);
    } else if (key == "batch_dims") {
      in >> current.batch_dims;
    } else if (key == "policy") {
      in >> word;
      current.policy = word == "drop" ? OutOfBoundsPolicy::kDrop : OutOfBoundsPolicy::kError;
    } else if (key == "params") {
      current.params = testing::parse_array(in);
    } else if (key == "indices") {
      in >> word;
      current.index_dtype = testing::parse_dtype(word);
      current.indices = testing::parse_array(in);
    } else if (key == "expected") {
      current.expect_error = line.find("error") != std::string::npos;
      if (!current.expect_error) current.expected = testing::parse_array(in);
    } else if (key == "end") {
      cases.push_back(current);
    }
  }
  return cases;
}

class GatherNdNumPy : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(GetParam()); }
};

TEST_P(GatherNdNumPy, MatchesNumPyVectors) {
  const std::vector<VectorCase> cases = load_cases();
  ASSERT_GE(cases.size(), 140u);
  int errors = 0;
  for (const VectorCase& c : cases) {
    SCOPED_TRACE(c.name);
    const TensorBuffer params = make(c.dtype, Shape(c.params.shape), c.params.values);
    const TensorBuffer indices = make(c.index_dtype, Shape(c.indices.shape), c.indices.values);
    const GatherOptions options{GetParam(), c.policy, 0, c.batch_dims, {}};
    if (c.expect_error) {
      ++errors;
      EXPECT_THROW((void)gather_nd(params, indices, options), InvalidArgumentError);
      continue;
    }
    const TensorBuffer out = gather_nd(params, indices, options);
    EXPECT_EQ(out.shape(), Shape(c.expected.shape));
    EXPECT_EQ(values(out), c.expected.values);
  }
  EXPECT_GT(errors, 10);
}

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(GatherNdNumPy);

}  // namespace
}  // namespace tensorbuf
