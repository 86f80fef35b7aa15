// The CUDA backend of gather on a GPU (skipped without one; TENSORBUF_REQUIRE_CUDA=1 makes that
// a failure): the steady state on device-resident inputs (kDrop: no host copies, waits or
// device allocations; kError: one wait, the first bad index's read-back), and the default
// device following params.
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

class GatherCUDA : public ::testing::Test {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(Device::cuda(0)); }
};

TEST_F(GatherCUDA, SteadyStateNeedsNoHostCopiesWaitsOrAllocations) {
  std::mt19937_64 rng(3);
  std::vector<double> table(4096 * 64);
  for (double& v : table) v = static_cast<double>(rng() % 200);
  std::vector<double> rows(10000);
  for (double& r : rows) r = static_cast<double>(static_cast<std::int64_t>(rng() % 8200) - 4100);
  TensorBuffer params = make(DataType::kFloat32, {4096, 64}, table);
  TensorBuffer indices = make(DataType::kInt64, {10000}, rows);
  params.sync_to(Device::cuda(0));
  indices.sync_to(Device::cuda(0));
  const GatherOptions drop{.device = Device::cuda(0), .out_of_bounds = OutOfBoundsPolicy::kDrop};
  { TensorBuffer warm = gather(params, indices, drop); }  // fills the caching allocator
  reset_stats();
  TensorBuffer out = gather(params, indices, drop);
  Stats s = stats();
  EXPECT_EQ(s.host_to_device_copies, 0);
  EXPECT_EQ(s.device_to_host_copies, 0);
  EXPECT_EQ(s.host_waits, 0);
  EXPECT_EQ(s.device_allocations, 0);
  EXPECT_TRUE(out.is_valid_on(Device::cuda(0)));
  for (double& r : rows) r = static_cast<double>(static_cast<std::int64_t>(r) % 4096);
  TensorBuffer good = make(DataType::kInt64, {10000}, rows);
  good.sync_to(Device::cuda(0));
  const GatherOptions error{.device = Device::cuda(0), .out_of_bounds = OutOfBoundsPolicy::kError};
  { TensorBuffer warm = gather(params, good, error); }
  reset_stats();
  TensorBuffer checked = gather(params, good, error);
  s = stats();
  EXPECT_EQ(s.host_waits, 1);
  EXPECT_EQ(s.device_allocations, 0);
  EXPECT_EQ(s.host_to_device_copies, 0);
}

TEST_F(GatherCUDA, DefaultDeviceFollowsParams) {
  TensorBuffer params = make(DataType::kFloat32, {3}, {1, 2, 3});
  params.sync_to(Device::cuda(0));
  params.mutable_device<float>();
  // Runs on CUDA (params live there), so the bad index is dropped.
  const TensorBuffer out = gather(params, make(DataType::kInt32, {2}, {-1, 3}));
  EXPECT_TRUE(out.is_valid_on(Device::cuda(0)));
  EXPECT_EQ(values(out), (std::vector<double>{3, 0}));
}

}  // namespace
}  // namespace tensorbuf
