// Device parameterisation for tests: every device-parameterised test has a CPU and a CUDA
// instance, the backend in its name. CUDA instances skip with the reason where no GPU is
// usable, and fail instead when TENSORBUF_REQUIRE_CUDA=1 (for runs on a GPU machine).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf::testing {

inline std::vector<Device> all_devices() { return {Device::cpu(), Device::cuda(0)}; }

inline bool cuda_required() {
  const char* env = std::getenv("TENSORBUF_REQUIRE_CUDA");
  return env != nullptr && std::string(env) == "1";
}

// "CPU" / "CUDA": the test-name suffix ctest's labels filter on.
inline std::string device_name(const ::testing::TestParamInfo<Device>& info) {
  return info.param.is_cuda() ? "CUDA" : "CPU";
}

}  // namespace tensorbuf::testing

// Skips (or, with TENSORBUF_REQUIRE_CUDA=1, fails) the current test when `device` is CUDA and
// CUDA is unusable.
#define TENSORBUF_SKIP_WITHOUT_CUDA(device)                                                  \
  do {                                                                                       \
    if ((device).is_cuda() && !::tensorbuf::cuda_available()) {                              \
      if (::tensorbuf::testing::cuda_required()) {                                           \
        FAIL() << "TENSORBUF_REQUIRE_CUDA=1 but CUDA is unavailable: "                       \
               << ::tensorbuf::cuda_availability_reason();                                   \
      }                                                                                      \
      GTEST_SKIP() << "CUDA unavailable: " << ::tensorbuf::cuda_availability_reason();        \
    }                                                                                        \
  } while (0)

// Instantiates a TEST_P suite over CPU and CUDA.
#define TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(Suite)                                          \
  INSTANTIATE_TEST_SUITE_P(Devices, Suite,                                                   \
                           ::testing::ValuesIn(::tensorbuf::testing::all_devices()),         \
                           ::tensorbuf::testing::device_name)
