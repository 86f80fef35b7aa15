// The CUDA backend of gather_elements on a GPU (skipped without one; TENSORBUF_REQUIRE_CUDA=1
// makes that a failure): the steady state on device-resident inputs (kDrop: no host copies,
// waits or device allocations; kError: one wait), and the default device following params.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "support/devices.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::mask_update::make;
using testing::mask_update::values;

class GatherElementsCUDA : public ::testing::Test {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(Device::cuda(0)); }
};

TEST_F(GatherElementsCUDA, SteadyStateNeedsNoHostCopiesWaitsOrAllocations) {
  std::mt19937_64 rng(7);
  std::vector<double> table(512 * 256);
  for (double& v : table) v = static_cast<double>(rng() % 200);
  std::vector<double> rows(512 * 64);
  for (double& r : rows) r = static_cast<double>(static_cast<std::int64_t>(rng() % 512) - 256);
  TensorBuffer params = make(DataType::kFloat32, {512, 256}, table);
  TensorBuffer indices = make(DataType::kInt64, {512, 64}, rows);
  params.sync_to(Device::cuda(0));
  indices.sync_to(Device::cuda(0));
  for (OutOfBoundsPolicy policy : {OutOfBoundsPolicy::kDrop, OutOfBoundsPolicy::kError}) {
    const GatherOptions options{.device = Device::cuda(0), .out_of_bounds = policy, .axis = 1};
    { TensorBuffer warm = gather_elements(params, indices, options); }
    reset_stats();
    TensorBuffer out = gather_elements(params, indices, options);
    const Stats s = stats();
    EXPECT_EQ(s.host_to_device_copies, 0);
    EXPECT_EQ(s.device_allocations, 0);
    EXPECT_EQ(s.host_waits, policy == OutOfBoundsPolicy::kError ? 1 : 0);
    EXPECT_TRUE(out.is_valid_on(Device::cuda(0)));
  }
}

TEST_F(GatherElementsCUDA, DefaultDeviceFollowsParams) {
  TensorBuffer params = make(DataType::kFloat32, {3}, {1, 2, 3});
  params.sync_to(Device::cuda(0));
  params.mutable_device<float>();
  const TensorBuffer out = gather_elements(params, make(DataType::kInt32, {2}, {-1, 3}));
  EXPECT_TRUE(out.is_valid_on(Device::cuda(0)));
  EXPECT_EQ(values(out), (std::vector<double>{3, 0}));
}

}  // namespace
}  // namespace tensorbuf
