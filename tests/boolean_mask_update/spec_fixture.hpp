// The fixture of the boolean_mask_update spec tests (test_spec.cpp, test_bytes.cpp): options on
// the test's device, and checks that run both forms (out of place and in place).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "support/devices.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf::testing::mask_update {

class BooleanMaskUpdate : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(GetParam()); }

  BooleanMaskUpdateOptions options(int axis = 0, bool broadcast = true) const {
    BooleanMaskUpdateOptions o;
    o.device = GetParam();
    o.axis = axis;
    o.broadcast = broadcast;
    return o;
  }

  // Runs out of place and in place; both must give `expected`, and the inputs stay unchanged.
  void expect_result(const TensorBuffer& tensor, const TensorBuffer& mask,
                     const TensorBuffer& updates, const BooleanMaskUpdateOptions& opts,
                     const std::vector<double>& expected) {
    const std::vector<std::uint8_t> tensor_before = bytes(tensor);
    const std::vector<std::uint8_t> mask_before = bytes(mask);
    const std::vector<std::uint8_t> updates_before = bytes(updates);
    TensorBuffer out = boolean_mask_update(tensor, mask, updates, opts);
    EXPECT_EQ(out.shape(), tensor.shape());
    EXPECT_EQ(out.data_type(), tensor.data_type());
    EXPECT_EQ(values(out), expected);
    EXPECT_EQ(bytes(tensor), tensor_before);
    EXPECT_EQ(bytes(mask), mask_before);
    EXPECT_EQ(bytes(updates), updates_before);

    TensorBuffer target = tensor.clone();
    boolean_mask_update_in_place(target, mask, updates, opts);
    EXPECT_EQ(values(target), expected);
    EXPECT_EQ(bytes(mask), mask_before);
    EXPECT_EQ(bytes(updates), updates_before);
  }

  // Both forms raise InvalidArgumentError (whose text is exactly `message` when given); the
  // tensor of the in-place form is unchanged.
  void expect_invalid(const TensorBuffer& tensor, const TensorBuffer& mask,
                      const TensorBuffer& updates, const BooleanMaskUpdateOptions& opts,
                      const std::string& message = "") {
    try {
      (void)boolean_mask_update(tensor, mask, updates, opts);
      ADD_FAILURE() << "no error";
    } catch (const InvalidArgumentError& e) {
      if (!message.empty()) {
        EXPECT_EQ(std::string(e.what()), message);
      }
    }
    TensorBuffer target = tensor.clone();
    const std::vector<std::uint8_t> before = bytes(target);
    try {
      boolean_mask_update_in_place(target, mask, updates, opts);
      ADD_FAILURE() << "no error (in place)";
    } catch (const InvalidArgumentError& e) {
      if (!message.empty()) {
        EXPECT_EQ(std::string(e.what()), message) << "(in place)";
      }
    }
    EXPECT_EQ(bytes(target), before);
  }
};

inline std::vector<double> iota(int n) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = i;
  return v;
}

}  // namespace tensorbuf::testing::mask_update
