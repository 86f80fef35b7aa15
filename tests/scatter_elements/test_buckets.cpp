// The CPU backend's bucketed path (src/cpu/scatter_elements_buckets.hpp) against the independent
// reference: forced on random cases with blocks of a few elements (so targets spread over many
// blocks and chunks), on 1 and 3 threads, in and out of place, bad indices dropped; and reached
// with its default blocks and tiles on a 4 MiB tensor (which the op itself, within the
// last-level cache, walks directly: both must agree), duplicates included. With tiles of a few
// positions (cpu::scatter_elements_tiled), the entries of one block come from many tiles, and
// kError's check as the tiles are bucketed must report the first bad index and write nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "core/elements_backends.hpp"
#include "core/plan_elements.hpp"
#include "cpu/scatter_elements_buckets.hpp"
#include "scatter_elements/reference.hpp"
#include "support/error_text.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::mask_update::bytes;
using testing::mask_update::from_bytes;
namespace el = testing::elements;
namespace sc = testing::scattering;
using testing::invalid_argument_text;

TEST(ScatterElementsBuckets, ForcedOnSmallBlocksMatchesTheReference) {
  std::mt19937_64 rng(5821);
  for (int i = 0; i < el::random_cases(); ++i) {
    const sc::ScatterCase s = sc::random_scatter_case(rng, /*with_bad=*/true);
    const TensorBuffer tensor = from_bytes(s.c.dtype, Shape(s.c.tensor_shape), s.c.tensor);
    const TensorBuffer indices = el::indices_buffer(s.c);
    const TensorBuffer updates = from_bytes(s.c.dtype, Shape(s.c.indices_shape), s.updates);
    core::ScatterElementsPlan plan = core::plan_scatter_elements(
        tensor, indices, updates,
        {Device::cpu(), OutOfBoundsPolicy::kDrop, false, s.c.axis, s.reduction, {}});
    plan.policy = OutOfBoundsPolicy::kDrop;
    const std::vector<std::uint8_t> expected = sc::reference(s.c, s.updates, s.reduction);
    const auto element = static_cast<std::int64_t>(type_size(s.c.dtype));
    for (const std::int64_t block_elements : {1, 4, 64}) {
      for (const int threads : {1, 3}) {
        for (const bool in_place : {false, true}) {
          std::vector<std::uint8_t> input = s.c.tensor;
          std::vector<std::uint8_t> out(s.c.tensor.size(), 0xee);
          void* target = in_place ? input.data() : out.data();
          const core::AxisIndexResult result = cpu::scatter_elements_bucketed(
              plan, {input.data(), indices.host_bytes(), s.updates.data(), target}, threads,
              block_elements * element);
          ASSERT_TRUE(result.applied());
          const auto* written = static_cast<const std::uint8_t*>(target);
          ASSERT_EQ(std::vector<std::uint8_t>(written, written + s.c.tensor.size()), expected)
              << "case " << i << ", blocks of " << block_elements << ", " << threads
              << " threads" << (in_place ? ", in place" : "");
          if (!in_place) {
            ASSERT_EQ(input, s.c.tensor) << "the input tensor is only read";
          }
        }
      }
    }
  }
}

TEST(ScatterElementsBuckets, ForcedOnSmallTilesMatchesTheReferenceUnderBothPolicies) {
  std::mt19937_64 rng(6203);
  int rejected = 0;
  for (int i = 0; i < el::random_cases(); ++i) {
    const sc::ScatterCase s = sc::random_scatter_case(rng, /*with_bad=*/true);
    const TensorBuffer tensor = from_bytes(s.c.dtype, Shape(s.c.tensor_shape), s.c.tensor);
    const TensorBuffer indices = el::indices_buffer(s.c);
    const TensorBuffer updates = from_bytes(s.c.dtype, Shape(s.c.indices_shape), s.updates);
    std::string text;
    const std::int64_t bad = el::first_bad(s.c, &text);
    rejected += bad >= 0;
    const std::vector<std::uint8_t> expected = sc::reference(s.c, s.updates, s.reduction);
    const auto element = static_cast<std::int64_t>(type_size(s.c.dtype));
    // At most 16 blocks and 256 tiles: each tile keeps a place per block.
    const auto elements = static_cast<std::int64_t>(s.c.tensor.size()) / element;
    const auto positions = static_cast<std::int64_t>(s.c.indices.size());
    std::int64_t block_elements = 4;
    while (block_elements * 16 < elements) block_elements *= 2;
    for (const OutOfBoundsPolicy policy : {OutOfBoundsPolicy::kDrop, OutOfBoundsPolicy::kError}) {
      core::ScatterElementsPlan plan = core::plan_scatter_elements(
          tensor, indices, updates, {Device::cpu(), policy, false, s.c.axis, s.reduction, {}});
      plan.policy = policy;
      const bool fails = policy == OutOfBoundsPolicy::kError && bad >= 0;
      for (const std::int64_t small_tile : {1, 3, 64}) {
        const std::int64_t tile = std::max(small_tile, positions / 256 + 1);
        for (const int threads : {1, 3}) {
          for (const bool in_place : {false, true}) {
            std::vector<std::uint8_t> input = s.c.tensor;
            const std::vector<std::uint8_t> untouched(s.c.tensor.size(), 0xee);
            std::vector<std::uint8_t> out = untouched;
            void* target = in_place ? input.data() : out.data();
            const core::AxisIndexResult result = cpu::scatter_elements_tiled(
                plan, {input.data(), indices.host_bytes(), s.updates.data(), target}, threads,
                block_elements * element, tile);
            const auto* written = static_cast<const std::uint8_t*>(target);
            const std::vector<std::uint8_t> got(written, written + s.c.tensor.size());
            if (fails) {
              ASSERT_FALSE(result.applied()) << "case " << i;
              ASSERT_EQ(result.first_bad_index, bad) << "case " << i << ", tiles of " << tile;
              ASSERT_EQ(result.bad_value, s.c.indices[static_cast<std::size_t>(bad)]);
              ASSERT_EQ(got, in_place ? s.c.tensor : untouched) << "an error writes nothing";
            } else {
              ASSERT_TRUE(result.applied()) << "case " << i;
              ASSERT_EQ(got, expected) << "case " << i << ", tiles of " << tile << ", "
                                       << threads << " threads" << (in_place ? ", in place" : "");
            }
            if (!in_place) {
              ASSERT_EQ(input, s.c.tensor) << "the input tensor is only read";
            }
          }
        }
      }
    }
  }
  EXPECT_GT(rejected, 0) << "some cases hold a bad index";
}

TEST(ScatterElementsBuckets, TheOpReportsTheFirstBadIndexOfABucketedTensor) {
  // [2^20] f32 (4 MiB) and [2^21] indices: bad indices in two tiles of the default size and a
  // later one in the first of them; kError names the first in row-major order and leaves the
  // target as it was, bucketed (forced) and through the op.
  el::Case c;
  c.tensor_shape = {2048 * 512};
  c.indices_shape = {4096 * 512};
  c.index_dtype = DataType::kInt64;
  std::mt19937_64 rng(78);
  c.tensor = sc::random_values(rng, DataType::kFloat32, 2048 * 512, false);
  c.indices.resize(4096 * 512);
  for (auto& v : c.indices) v = static_cast<std::int64_t>(rng() % (2048 * 512));
  const std::int64_t tile = cpu::scatter_elements_buckets::kTilePositions;
  c.indices[static_cast<std::size_t>(5 * tile + 7)] = -2048 * 512 - 1;
  c.indices[static_cast<std::size_t>(2 * tile + 100)] = 2048 * 512;
  c.indices[static_cast<std::size_t>(2 * tile + 101)] = 5000 * 512;
  std::string text;
  ASSERT_EQ(el::first_bad(c, &text), 2 * tile + 100);
  const std::vector<std::uint8_t> updates =
      sc::random_values(rng, DataType::kFloat32, 4096 * 512, false);
  const TensorBuffer tensor = from_bytes(c.dtype, Shape(c.tensor_shape), c.tensor);
  const TensorBuffer indices = el::indices_buffer(c);
  const TensorBuffer update_buffer = from_bytes(c.dtype, Shape(c.indices_shape), updates);
  ScatterElementsOptions options;
  options.device = Device::cpu();
  options.reduction = Reduction::kAdd;
  options.out_of_bounds = OutOfBoundsPolicy::kError;
  TensorBuffer target = from_bytes(c.dtype, Shape(c.tensor_shape), c.tensor);
  EXPECT_EQ(invalid_argument_text(
                [&] { scatter_elements_in_place(target, indices, update_buffer, options); }),
            text);
  EXPECT_EQ(bytes(target), c.tensor);
  core::ScatterElementsPlan plan =
      core::plan_scatter_elements(tensor, indices, update_buffer, options);
  plan.policy = OutOfBoundsPolicy::kError;
  std::vector<std::uint8_t> in_place = c.tensor;
  const core::AxisIndexResult result = cpu::scatter_elements_bucketed(
      plan, {in_place.data(), indices.host_bytes(), updates.data(), in_place.data()}, 0,
      cpu::buckets::kBlockBytes);
  EXPECT_EQ(result.first_bad_index, 2 * tile + 100);
  EXPECT_EQ(result.bad_value, 2048 * 512);
  EXPECT_EQ(in_place, c.tensor);
}

TEST(ScatterElementsBuckets, TheOpBucketsATensorBeyondTheCaches) {
  // [2^20] f32 (4 MiB) and [2^21] indices, bucketed (forced) and through the op, two updates
  // per target on average: kNone keeps the last in row-major order, kAdd sums exactly
  // (small integers).
  el::Case c;
  c.tensor_shape = {2048 * 512};
  c.indices_shape = {4096 * 512};
  c.index_dtype = DataType::kInt64;
  std::mt19937_64 rng(77);
  c.tensor = sc::random_values(rng, DataType::kFloat32, 2048 * 512, false);
  c.indices.resize(4096 * 512);
  for (auto& v : c.indices) {
    v = static_cast<std::int64_t>(rng() % (4096 * 512)) - 2048 * 512;  // wraps too
  }
  const std::vector<std::uint8_t> updates =
      sc::random_values(rng, DataType::kFloat32, 4096 * 512, false);
  const TensorBuffer tensor = from_bytes(c.dtype, Shape(c.tensor_shape), c.tensor);
  const TensorBuffer indices = el::indices_buffer(c);
  const TensorBuffer update_buffer = from_bytes(c.dtype, Shape(c.indices_shape), updates);
  for (const Reduction reduction : {Reduction::kNone, Reduction::kAdd, Reduction::kMax}) {
    const std::vector<std::uint8_t> expected = sc::reference(c, updates, reduction);
    ScatterElementsOptions options;
    options.device = Device::cpu();
    options.reduction = reduction;
    ASSERT_EQ(bytes(scatter_elements(tensor, indices, update_buffer, options)), expected);
    TensorBuffer target = from_bytes(c.dtype, Shape(c.tensor_shape), c.tensor);
    scatter_elements_in_place(target, indices, update_buffer, options);
    ASSERT_EQ(bytes(target), expected);
    core::ScatterElementsPlan plan =
        core::plan_scatter_elements(tensor, indices, update_buffer, options);
    plan.policy = OutOfBoundsPolicy::kError;
    std::vector<std::uint8_t> out(c.tensor.size(), 0xee);
    ASSERT_TRUE(cpu::scatter_elements_bucketed(
                    plan, {c.tensor.data(), indices.host_bytes(), updates.data(), out.data()}, 0,
                    cpu::buckets::kBlockBytes)
                    .applied());
    ASSERT_EQ(out, expected);
  }
}

}  // namespace
}  // namespace tensorbuf
