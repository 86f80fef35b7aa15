// boolean_mask_update against NumPy: the cases of tests/data/boolean_mask_update/vectors.txt
// (written by generate.py beside it), on every device.
#include <gtest/gtest.h>

#include <cstdint>
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

using testing::mask_update::bytes;
using testing::mask_update::make;
using testing::mask_update::values;

using Array = testing::ArrayText;
using testing::parse_array;
using testing::parse_dtype;

struct VectorCase {
  std::string name;
  DataType dtype = DataType::kFloat32;
  int axis = 0;
  bool broadcast = true;
  Array tensor, mask, updates, expected;
  bool expect_error = false;
};

std::vector<VectorCase> load_cases() {
  const std::string path =
      std::string(TENSORBUF_TEST_DATA_DIR) + "/boolean_mask_update/vectors.txt";
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot open " + path);
  std::vector<VectorCase> cases;
  VectorCase current;
  for (std::string line; std::getline(file, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    std::string key;
    in >> key;
    if (key == "case") {
      current = VectorCase{};
      in >> current.name;
    } else if (key == "dtype") {
      std::string name;
      in >> name;
      current.dtype = parse_dtype(name);
    } else if (key == "axis") {
      in >> current.axis;
    } else if (key == "broadcast") {
      int b = 1;
      in >> b;
      current.broadcast = b != 0;
    } else if (key == "tensor") {
      current.tensor = parse_array(in);
    } else if (key == "mask") {
      current.mask = parse_array(in);
    } else if (key == "updates") {
      current.updates = parse_array(in);
    } else if (key == "expected") {
      if (line.find("error") != std::string::npos) {
        current.expect_error = true;
      } else {
        current.expected = parse_array(in);
      }
    } else if (key == "end") {
      cases.push_back(current);
    }
  }
  return cases;
}

class BooleanMaskUpdateNumPy : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(GetParam()); }
};

TEST_P(BooleanMaskUpdateNumPy, MatchesNumPyVectors) {
  const std::vector<VectorCase> cases = load_cases();
  ASSERT_GT(cases.size(), 200u);
  int errors = 0;
  for (const VectorCase& c : cases) {
    SCOPED_TRACE(c.name);
    const TensorBuffer t = make(c.dtype, Shape(c.tensor.shape), c.tensor.values);
    const TensorBuffer m = make(DataType::kBool, Shape(c.mask.shape), c.mask.values);
    const TensorBuffer u = make(c.dtype, Shape(c.updates.shape), c.updates.values);
    BooleanMaskUpdateOptions options;
    options.device = GetParam();
    options.axis = c.axis;
    options.broadcast = c.broadcast;
    TensorBuffer target = t.clone();
    if (c.expect_error) {
      ++errors;
      EXPECT_THROW((void)boolean_mask_update(t, m, u, options), InvalidArgumentError);
      const std::vector<std::uint8_t> before = bytes(target);
      EXPECT_THROW(boolean_mask_update_in_place(target, m, u, options), InvalidArgumentError);
      EXPECT_EQ(bytes(target), before);
      continue;
    }
    const TensorBuffer out = boolean_mask_update(t, m, u, options);
    EXPECT_EQ(out.shape(), Shape(c.expected.shape));
    EXPECT_EQ(values(out), c.expected.values);
    boolean_mask_update_in_place(target, m, u, options);
    EXPECT_EQ(values(target), c.expected.values);
    EXPECT_EQ(values(t), c.tensor.values);
  }
  EXPECT_GT(errors, 10);
}

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(BooleanMaskUpdateNumPy);

}  // namespace
}  // namespace tensorbuf
