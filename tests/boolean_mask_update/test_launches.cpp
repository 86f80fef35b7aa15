// The work boolean_mask_update's CUDA driver queues per call, counted as CUDA launches
// (support/launch_counting_executor.hpp; docs/boolean_mask_update.md, "Launches per call"),
// host reads apart. Every form against both tile-scan variants
// (kernels/boolean_mask_update_variants.hpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "core/plan_boolean_mask_update.hpp"
#include "kernels/boolean_mask_update.hpp"
#include "support/launch_counting_executor.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::LaunchCountingExecutor;
using testing::mask_update::make_f32;

struct Form {
  bool in_place;
  bool rows;  // updates [n, 8] (ranks needed, n checked on the host); else a scalar
  kernels::MaskUpdatePass pass;
  int count_then_scan;  // launches with MaskUpdateRanks::kCountThenScan
  int scan_of_counts;   // with kScanOfCounts
};

constexpr auto kElements = kernels::MaskUpdatePass::kElements;
constexpr auto kTiles = kernels::MaskUpdatePass::kTiles;
constexpr auto kCopyThenTiles = kernels::MaskUpdatePass::kCopyThenTiles;

TEST(BooleanMaskUpdateLaunches, PerFormAndTileScanVariant) {
  // [64, 8] float32, every third row masked: n = 22.
  std::vector<double> values(64 * 8);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i);
  const TensorBuffer tensor = make_f32(Shape{64, 8}, values);
  TensorBuffer mask = TensorBuffer::create_uninitialized(Shape{64}, DataType::kBool);
  auto* mask_bytes = mask.overwrite_host<std::uint8_t>();
  for (int i = 0; i < 64; ++i) mask_bytes[i] = i % 3 == 0 ? 1 : 0;
  const TensorBuffer rows = make_f32(Shape{22, 8}, std::vector<double>(22 * 8, -1.0));
  const TensorBuffer scalar = make_f32(Shape{}, {-1.0});

  const Form forms[] = {
      {true, false, kElements, 1, 1},       {true, true, kElements, 4, 3},
      {true, true, kTiles, 4, 3},           {false, false, kElements, 1, 1},
      {false, true, kElements, 4, 3},       {false, true, kTiles, 4, 3},
      {false, false, kCopyThenTiles, 2, 2}, {false, true, kCopyThenTiles, 5, 4},
  };
  for (const Form& form : forms) {
    for (auto ranks :
         {kernels::MaskUpdateRanks::kCountThenScan, kernels::MaskUpdateRanks::kScanOfCounts}) {
      SCOPED_TRACE(::testing::Message()
                   << "in_place " << form.in_place << " rows " << form.rows << " pass "
                   << static_cast<int>(form.pass) << " ranks " << static_cast<int>(ranks));
      const TensorBuffer& updates = form.rows ? rows : scalar;
      const core::BooleanMaskUpdatePlan plan =
          core::plan_boolean_mask_update(tensor, mask, updates, BooleanMaskUpdateOptions{});
      std::vector<float> out(64 * 8);
      core::BooleanMaskUpdateBuffers buffers;
      buffers.tensor = form.in_place ? static_cast<const void*>(out.data()) : tensor.host_bytes();
      buffers.mask = mask.host<std::uint8_t>();
      buffers.updates = updates.host_bytes();
      buffers.out = out.data();
      LaunchCountingExecutor ex;
      const core::BooleanMaskUpdateResult result =
          kernels::run_boolean_mask_update(ex, plan, buffers, form.pass, ranks);
      EXPECT_TRUE(result.applied());
      EXPECT_EQ(ex.launches(), ranks == kernels::MaskUpdateRanks::kCountThenScan
                                   ? form.count_then_scan
                                   : form.scan_of_counts);
      EXPECT_EQ(ex.reads(), form.rows ? 1 : 0);
      EXPECT_EQ(result.count, form.rows ? 22 : -1);
    }
  }
}

}  // namespace
}  // namespace tensorbuf
