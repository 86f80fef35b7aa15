// The fixture of the spec tests (test_spec.cpp, test_spec_mul.cpp): a TEST_P over the devices
// whose helpers run an op every way the spec's rules must hold (out of place and in place, both
// policies, both CUDA paths) against one expected result or one error.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scatter_nd/helpers.hpp"
#include "support/devices.hpp"

namespace tensorbuf::testing::scatter {

class SpecFixture : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(GetParam()); }
  ScatterOptions options(OutOfBoundsPolicy policy = OutOfBoundsPolicy::kDeviceDefault,
                         bool deterministic = false) const {
    return ScatterOptions{
        .device = GetParam(), .out_of_bounds = policy, .deterministic = deterministic};
  }

  // Runs `op` out of place and in place, with both policies and both CUDA paths, and checks
  // each against `expected` (which must not depend on the policy: no bad rows).
  void expect_all(Op op, const TensorBuffer& tensor, const TensorBuffer& indices,
                  const TensorBuffer& updates, const TensorBuffer& expected) {
    for (OutOfBoundsPolicy policy : {OutOfBoundsPolicy::kError, OutOfBoundsPolicy::kDrop}) {
      for (bool deterministic : {false, true}) {
        SCOPED_TRACE(::testing::Message() << "policy " << static_cast<int>(policy)
                                          << " deterministic " << deterministic);
        const std::vector<std::uint8_t> before = bytes_of(tensor);
        TensorBuffer out =
            out_of_place(op)(tensor, indices, updates, options(policy, deterministic));
        EXPECT_TRUE(same_values(out, expected));
        EXPECT_EQ(bytes_of(tensor), before) << "input modified";
        TensorBuffer target = tensor.clone();
        in_place(op)(target, indices, updates, options(policy, deterministic));
        EXPECT_TRUE(same_values(target, expected));
      }
    }
  }

  // The op raises InvalidArgumentError with exactly `message` (unless empty), out of place
  // and in place; the in-place tensor stays as it was.
  void expect_error(Op op, const TensorBuffer& tensor, const TensorBuffer& indices,
                    const TensorBuffer& updates, const ScatterOptions& opts,
                    const std::string& message) {
    try {
      out_of_place(op)(tensor, indices, updates, opts);
      ADD_FAILURE() << "no error";
    } catch (const InvalidArgumentError& e) {
      if (!message.empty()) {
        EXPECT_EQ(std::string(e.what()), message);
      }
    }
    TensorBuffer target = tensor.clone();
    try {
      in_place(op)(target, indices, updates, opts);
      ADD_FAILURE() << "no error in place";
    } catch (const InvalidArgumentError& e) {
      if (!message.empty()) {
        EXPECT_EQ(std::string(e.what()), message);
      }
    }
    EXPECT_TRUE(same_values(target, tensor)) << "in-place error changed the tensor";
  }
};

}  // namespace tensorbuf::testing::scatter
