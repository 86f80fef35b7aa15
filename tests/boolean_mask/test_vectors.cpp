// boolean_mask and compress against NumPy: the cases of tests/data/boolean_mask/vectors.txt
// (written by generate.py beside it), on every device.
#include <gtest/gtest.h>

#include <fstream>
#include <optional>
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
  std::string op;
  DataType dtype = DataType::kFloat32;
  std::optional<int> axis;
  ArrayText tensor, mask, expected;
  bool expect_error = false;
};

std::vector<VectorCase> load_cases() {
  const std::string path = std::string(TENSORBUF_TEST_DATA_DIR) + "/boolean_mask/vectors.txt";
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
    } else if (key == "op") {
      in >> current.op;
    } else if (key == "dtype") {
      in >> word;
      current.dtype = testing::parse_dtype(word);
    } else if (key == "axis") {
      in >> word;
      if (word != "none") current.axis = std::stoi(word);
    } else if (key == "tensor") {
      current.tensor = testing::parse_array(in);
    } else if (key == "mask") {
      current.mask = testing::parse_array(in);
    } else if (key == "expected") {
      current.expect_error = line.find("error") != std::string::npos;
      if (!current.expect_error) current.expected = testing::parse_array(in);
    } else if (key == "end") {
      cases.push_back(current);
    }
  }
  return cases;
}

class BooleanMaskNumPy : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(GetParam()); }
};

TEST_P(BooleanMaskNumPy, MatchesNumPyVectors) {
  const std::vector<VectorCase> cases = load_cases();
  ASSERT_GE(cases.size(), 80u);
  int errors = 0;
  for (const VectorCase& c : cases) {
    SCOPED_TRACE(c.name);
    const TensorBuffer t = make(c.dtype, Shape(c.tensor.shape), c.tensor.values);
    const TensorBuffer m = make(DataType::kBool, Shape(c.mask.shape), c.mask.values);
    auto run = [&] {
      if (c.op == "compress") return compress(t, m, {GetParam(), c.axis, {}});
      return boolean_mask(t, m, {GetParam(), c.axis.value_or(0), {}});
    };
    if (c.expect_error) {
      ++errors;
      EXPECT_THROW((void)run(), InvalidArgumentError);
      continue;
    }
    const TensorBuffer out = run();
    EXPECT_EQ(out.shape(), Shape(c.expected.shape));
    EXPECT_EQ(values(out), c.expected.values);
    EXPECT_EQ(values(t), c.tensor.values);
  }
  EXPECT_GT(errors, 3);
}

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(BooleanMaskNumPy);

}  // namespace
}  // namespace tensorbuf
