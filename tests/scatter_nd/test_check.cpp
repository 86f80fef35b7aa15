// The CPU's in-place kError check (cpu/scatter_nd_check.hpp) on its SIMD and portable paths:
// the first bad row is named wherever it lies (first row, inside a vector, the tail, negative,
// past the bound, int32 and int64 indices, depth 1 and 2), and the tensor is left unchanged.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cpu/cpu_features.hpp"
#include "support/error_text.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

class SimdSwitch {
 public:
  explicit SimdSwitch(bool on) { cpu::set_simd_enabled(on); }
  ~SimdSwitch() { cpu::set_simd_enabled(true); }
  SimdSwitch(const SimdSwitch&) = delete;
  SimdSwitch& operator=(const SimdSwitch&) = delete;
};

TensorBuffer indices_of(const std::vector<std::int64_t>& values, DataType type, int depth) {
  const auto rows = static_cast<std::int64_t>(values.size()) / depth;
  TensorBuffer out = TensorBuffer::create_fixed_size({rows, depth}, type);
  if (type == DataType::kInt64) {
    out.load_buffer(std::as_bytes(std::span<const std::int64_t>(values)));
  } else {
    std::vector<std::int32_t> narrow(values.begin(), values.end());
    out.load_array(std::span<const std::int32_t>(narrow));
  }
  return out;
}

TEST(ScatterNdCheck, FirstBadRowOnBothPaths) {
  constexpr std::int64_t kSlices = 50;
  for (const bool simd : {true, false}) {
    const SimdSwitch simd_switch(simd);
    for (const DataType type : {DataType::kInt32, DataType::kInt64}) {
      for (const std::int64_t rows : {1, 7, 8, 9, 63, 300}) {
        for (std::int64_t bad = 0; bad < rows; bad += 1 + bad / 3) {
          for (const std::int64_t value : {std::int64_t{-1}, kSlices, std::int64_t{-50}}) {
            SCOPED_TRACE(std::to_string(simd) + " " + std::string(to_string(type)) + " rows " +
                         std::to_string(rows) + " bad " + std::to_string(bad) + " value " +
                         std::to_string(value));
            std::vector<std::int64_t> idx(static_cast<std::size_t>(rows));
            for (std::int64_t r = 0; r < rows; ++r) idx[static_cast<std::size_t>(r)] = r % kSlices;
            idx[static_cast<std::size_t>(bad)] = value;
            if (bad + 2 < rows) idx[static_cast<std::size_t>(bad + 2)] = kSlices + 7;  // later
            TensorBuffer tensor = TensorBuffer::create_fixed_size({kSlices}, DataType::kFloat32);
            tensor.load_array(std::vector<float>(kSlices, 1.0f));
            TensorBuffer updates = TensorBuffer::create_fixed_size({rows}, DataType::kFloat32);
            updates.load_array(std::vector<float>(static_cast<std::size_t>(rows), 2.0f));
            const TensorBuffer indices = indices_of(idx, type, 1);
            EXPECT_EQ(testing::invalid_argument_text([&] {
                        tensor_scatter_nd_add_in_place(tensor, indices, updates,
                                                       {.device = Device::cpu()});
                      }),
                      "indices[" + std::to_string(bad) + "] = [" + std::to_string(value) +
                          "] does not index into shape [50]");
            EXPECT_EQ(tensor.get_float_array(), std::vector<float>(kSlices, 1.0f));
          }
        }
      }
    }
  }
}

TEST(ScatterNdCheck, GoodRowsApplyOnBothPaths) {
  for (const bool simd : {true, false}) {
    const SimdSwitch simd_switch(simd);
    TensorBuffer tensor = TensorBuffer::create_fixed_size({4, 3}, DataType::kFloat32);
    tensor.load_array(std::vector<float>(12, 0.0f));
    TensorBuffer updates = TensorBuffer::create_fixed_size({3}, DataType::kFloat32);
    updates.load_array(std::vector<float>{1, 2, 3});
    // Depth 2: the general path; the bound of the last row's second component is 3.
    tensor_scatter_nd_add_in_place(tensor, indices_of({0, 0, 3, 2, 3, 2}, DataType::kInt64, 2),
                                   updates, {.device = Device::cpu()});
    EXPECT_EQ(tensor.get_float_array(), (std::vector<float>{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5}));
    EXPECT_EQ(testing::invalid_argument_text([&] {
                tensor_scatter_nd_add_in_place(tensor,
                                               indices_of({0, 0, 3, 3, 4, 0}, DataType::kInt64, 2),
                                               updates, {.device = Device::cpu()});
              }),
              "indices[1] = [3, 3] does not index into shape [4,3]");
  }
}

}  // namespace
}  // namespace tensorbuf
