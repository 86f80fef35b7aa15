// A fixture for the CPU row copies of gather and gather_nd (cpu/row_gather.hpp): every path
// reached on small tensors (prefetch and streaming thresholds at 0), with the AVX-512 paths
// (param true) or the portable ones (false); restored however the test ends.
#pragma once

#include <gtest/gtest.h>

#include "cpu/cpu_features.hpp"
#include "cpu/row_gather.hpp"

namespace tensorbuf::testing {

class RowCopyPaths : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    cpu::set_simd_enabled(GetParam());
    cpu::set_row_gather_thresholds({0, 0});
  }
  void TearDown() override {
    cpu::set_simd_enabled(true);
    cpu::set_row_gather_thresholds({});
  }
};

// INSTANTIATE_TEST_SUITE_P's name generator: "avx512" / "portable".
inline const char* simd_param_name(const ::testing::TestParamInfo<bool>& info) {
  return info.param ? "avx512" : "portable";
}

}  // namespace tensorbuf::testing
