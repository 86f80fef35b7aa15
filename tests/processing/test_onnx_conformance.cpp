// ONNX node tests (Debian's libonnx-testdata) for QuantizeLinear, DequantizeLinear and Cast,
// converted to .npy by onnx_to_npy.py (the ctest fixture) into TENSORBUF_ONNX_NPY_DIR; each
// output must equal the expected tensor bit for bit (NaN equal to NaN). Skips when the
// folder is empty (onnx or the data not installed).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tensorbuf/npy.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

namespace fs = std::filesystem;

DataType dtype_named(const std::string& name) {
  const std::vector<DataType> all = {DataType::kBool,    DataType::kUInt8,    DataType::kInt8,
                                     DataType::kInt16,   DataType::kInt32,    DataType::kInt64,
                                     DataType::kFloat16, DataType::kBFloat16, DataType::kFloat32,
                                     DataType::kFloat64};
  for (DataType t : all) {
    if (to_string(t) == name) return t;
  }
  throw InvalidArgumentError(std::string("unknown dtype ").append(name));
}

TEST(OnnxConformance, NodeTests) {
  const char* dir = std::getenv("TENSORBUF_ONNX_NPY_DIR");
  if (dir == nullptr || !fs::is_directory(dir) || fs::is_empty(dir)) {
    GTEST_SKIP() << "no converted ONNX node tests (python3-onnx, libonnx-testdata)";
  }
  int cases = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    SCOPED_TRACE(entry.path().filename().string());
    std::ifstream node(entry.path() / "node.txt");
    std::string op;
    std::string param;
    node >> op >> param;
    const TensorBuffer x = load_npy_tensor(entry.path() / "in0.npy");
    const TensorBuffer expected = load_npy_tensor(entry.path() / "out.npy");
    TensorBuffer got = TensorBuffer::create_dynamic(DataType::kUInt8);
    if (op == "Cast") {
      got = cast(x, dtype_named(param));
    } else {
      QuantizeLinearOptions options;
      options.axis = std::stoi(param);
      const TensorBuffer scale = load_npy_tensor(entry.path() / "in1.npy");
      const TensorBuffer zero_point = load_npy_tensor(entry.path() / "in2.npy");
      got = op == "QuantizeLinear" ? quantize_linear(x, scale, zero_point, options)
                                   : dequantize_linear(x, scale, zero_point, options);
    }
    ASSERT_EQ(got.data_type(), expected.data_type());
    ASSERT_EQ(got.shape(), expected.shape());
    // Bytes, so that NaN payloads and -0.0 are compared too.
    const std::vector<std::byte> a = serialize_npy(got);
    const std::vector<std::byte> b = serialize_npy(expected);
    EXPECT_TRUE(a == b);
    ++cases;
  }
  EXPECT_EQ(cases, 10);
}

}  // namespace
}  // namespace tensorbuf
