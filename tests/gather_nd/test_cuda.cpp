// The CUDA backend on a GPU (skipped without one; TENSORBUF_REQUIRE_CUDA=1 makes that a
// failure): the steady state on device-resident inputs (kDrop: no host copies, no host waits,
// no device allocations; kError: one wait, the first bad row's read-back), and the default
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

class GatherNdCUDA : public ::testing::Test {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(Device::cuda(0)); }
};

TEST_F(GatherNdCUDA, SteadyStateNeedsNoHostCopiesWaitsOrAllocations) {
  std::mt19937_64 rng(3);
  std::vector<double> table(4096 * 64);
  for (double& v : table) v = static_cast<double>(rng() % 200);
  std::vector<double> rows(10000);
  for (double& r : rows) r = static_cast<double>(rng() % 4100);  // a few past the end
  TensorBuffer params = make(DataType::kFloat32, {4096, 64}, table);
  TensorBuffer indices = make(DataType::kInt64, {10000, 1}, rows);
  params.sync_to(Device::cuda(0));
  indices.sync_to(Device::cuda(0));
  const GatherOptions drop{.device = Device::cuda(0), .out_of_bounds = OutOfBoundsPolicy::kDrop};
  { TensorBuffer warm = gather_nd(params, indices, drop); }  // fills the caching allocator
  reset_stats();
  TensorBuffer out = gather_nd(params, indices, drop);
  Stats s = stats();
  EXPECT_EQ(s.host_to_device_copies, 0);
  EXPECT_EQ(s.device_to_host_copies, 0);
  EXPECT_EQ(s.host_waits, 0);
  EXPECT_EQ(s.device_allocations, 0);
  EXPECT_TRUE(out.is_valid_on(Device::cuda(0)));
  EXPECT_FALSE(out.is_valid_on(Device::cpu()));
  // kError on good rows: exactly one wait.
  for (double& r : rows) r = static_cast<double>(static_cast<std::int64_t>(r) % 4096);
  TensorBuffer good = make(DataType::kInt64, {10000, 1}, rows);
  good.sync_to(Device::cuda(0));
  const GatherOptions error{.device = Device::cuda(0), .out_of_bounds = OutOfBoundsPolicy::kError};
  { TensorBuffer warm = gather_nd(params, good, error); }
  reset_stats();
  TensorBuffer checked = gather_nd(params, good, error);
  s = stats();
  EXPECT_EQ(s.host_waits, 1);
  EXPECT_EQ(s.device_allocations, 0);
  EXPECT_EQ(s.host_to_device_copies, 0);
}

TEST_F(GatherNdCUDA, DefaultDeviceFollowsParams) {
  TensorBuffer params = make(DataType::kFloat32, {3}, {1, 2, 3});
  params.sync_to(Device::cuda(0));
  params.mutable_device<float>();
  // Runs on CUDA (params live there), so the bad row is dropped.
  const TensorBuffer out = gather_nd(params, make(DataType::kInt32, {2, 1}, {2, 3}));
  EXPECT_TRUE(out.is_valid_on(Device::cuda(0)));
  EXPECT_EQ(values(out), (std::vector<double>{3, 0}));
}

}  // namespace
}  // namespace tensorbuf
