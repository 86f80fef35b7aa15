// substr against tests/data/substr/substr_vectors.txt, computed by generate.py with Python's own
// slicing (and Python's repr for the error text), on each device, under kDrop and kError.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "substr/helpers.hpp"
#include "support/devices.hpp"

namespace tensorbuf {
namespace {

using testing::Strings;

struct VectorCase {
  std::string name;
  bool utf8 = false;
  DataType type = DataType::kInt32;
  Shape in_shape;
  Strings input;
  Shape pos_shape;
  std::vector<std::int64_t> pos;
  std::vector<std::int64_t> len;
  Shape out_shape;
  Strings out;
  std::int64_t error_index = -1;
  std::string error_message;
};

Shape parse_shape(const std::string& text) {
  std::vector<std::int64_t> dims;
  std::string inner = text.substr(1, text.size() - 2);
  std::stringstream in(inner);
  std::string item;
  while (std::getline(in, item, ',')) dims.push_back(std::stoll(item));
  return Shape(dims);
}

std::string unhex(const std::string& text) {
  if (text == "-") return {};
  std::string out;
  for (std::size_t i = 0; i + 1 < text.size(); i += 2) {
    out += static_cast<char>(std::stoi(text.substr(i, 2), nullptr, 16));
  }
  return out;
}

std::vector<VectorCase> load_cases() {
  std::ifstream file(std::string(TENSORBUF_TEST_DATA_DIR) + "/substr/substr_vectors.txt");
  EXPECT_TRUE(file.good()) << "missing substr_vectors.txt";
  std::vector<VectorCase> cases;
  VectorCase current;
  std::string line;
  while (std::getline(file, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::stringstream in(line);
    std::string tag;
    in >> tag;
    if (tag == "case") {
      std::string unit;
      std::string dtype;
      current = VectorCase{};
      in >> current.name >> unit >> dtype;
      current.utf8 = unit == "utf8";
      current.type = dtype == "int64" ? DataType::kInt64 : DataType::kInt32;
    } else if (tag == "input" || tag == "out") {
      std::string shape;
      in >> shape;
      Strings values;
      std::string item;
      while (in >> item) values.push_back(unhex(item));
      if (tag == "input") {
        current.in_shape = parse_shape(shape);
        current.input = values;
      } else {
        current.out_shape = parse_shape(shape);
        current.out = values;
      }
    } else if (tag == "pos" || tag == "len") {
      std::string shape;
      in >> shape;
      current.pos_shape = parse_shape(shape);
      std::vector<std::int64_t> values;
      std::int64_t v = 0;
      while (in >> v) values.push_back(v);
      (tag == "pos" ? current.pos : current.len) = values;
    } else if (tag == "error") {
      in >> current.error_index;
      in.get();  // the space before the message
      std::getline(in, current.error_message);
    } else if (tag == "end") {
      cases.push_back(current);
    }
  }
  return cases;
}

class SubstrVectors : public ::testing::TestWithParam<Device> {};

TEST_P(SubstrVectors, MatchPythonSlicing) {
  TENSORBUF_SKIP_WITHOUT_CUDA(GetParam());
  const std::vector<VectorCase> cases = load_cases();
  ASSERT_GT(cases.size(), 300u);
  for (const VectorCase& c : cases) {
    SCOPED_TRACE(c.name);
    StringTensor in = StringTensor::from_strings(c.input, c.in_shape);
    TensorBuffer pos = testing::index_buffer(c.pos, c.pos_shape, c.type);
    TensorBuffer len = testing::index_buffer(c.len, c.pos_shape, c.type);
    SubstrOptions options{.device = GetParam(),
                          .unit = c.utf8 ? SubstrUnit::kUtf8Char : SubstrUnit::kByte,
                          .out_of_bounds = OutOfBoundsPolicy::kDrop};
    StringTensor out = substr(in, pos, len, options);
    ASSERT_EQ(out.shape(), c.out_shape);
    ASSERT_EQ(out.to_strings(), c.out);
    options.out_of_bounds = OutOfBoundsPolicy::kError;
    if (c.error_index < 0) {
      ASSERT_EQ(substr(in, pos, len, options).to_strings(), c.out);
      continue;
    }
    try {
      substr(in, pos, len, options);
      FAIL() << "expected InvalidArgumentError";
    } catch (const InvalidArgumentError& e) {
      ASSERT_EQ(std::string(e.what()), c.error_message);
    }
  }
}

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(SubstrVectors);

// The same file through the CUDA backend's driver on the CPU.
TEST(SubstrVectorsDriver, MatchPythonSlicing) {
  for (const VectorCase& c : load_cases()) {
    SCOPED_TRACE(c.name);
    StringTensor in = StringTensor::from_strings(c.input, c.in_shape);
    TensorBuffer pos = testing::index_buffer(c.pos, c.pos_shape, c.type);
    TensorBuffer len = testing::index_buffer(c.len, c.pos_shape, c.type);
    for (std::int64_t threshold : {std::int64_t{0}, INT64_MAX}) {
      testing::DriverSettings settings;
      settings.unit = c.utf8 ? SubstrUnit::kUtf8Char : SubstrUnit::kByte;
      settings.lane_threshold = threshold;
      testing::DriverRun run = testing::run_driver(in, pos, len, settings);
      ASSERT_EQ(run.values, c.out);
      settings.report = true;
      run = testing::run_driver(in, pos, len, settings);
      ASSERT_EQ(run.first_bad, c.error_index);
    }
  }
}

}  // namespace
}  // namespace tensorbuf
