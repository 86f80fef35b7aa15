// D3: distributed boolean_mask_update equals the single-process op on the gathered tensor,
// along axis 0 (mask sharded, updates replicated) and axis >= 1 (mask and updates replicated).
#include "mpi/scatter_cases.hpp"

namespace tensorbuf::dist::testing {
namespace {

TensorBuffer random_mask(const Shape& shape, unsigned seed, int percent_true) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(shape.num_elements()));
  for (auto& b : bytes) b = static_cast<int>(rng() % 100) < percent_true ? 1 : 0;
  TensorBuffer mask = TensorBuffer::create_fixed_size(shape, DataType::kBool);
  if (!bytes.empty()) std::memcpy(mask.overwrite_host_bytes(), bytes.data(), bytes.size());
  return mask;
}

std::int64_t count(const TensorBuffer& mask) {
  std::int64_t n = 0;
  for (std::int64_t i = 0; i < mask.flat_size(); ++i) n += mask.host<std::uint8_t>()[i] ? 1 : 0;
  return n;
}

class DistMaskUpdate : public ::testing::Test {
 protected:
  // Tensor [rows] + trailing, float32, uneven layout with a zero-row rank.
  TensorBuffer full(const std::vector<std::int64_t>& trailing, unsigned seed) {
    std::vector<std::int64_t> dims = {layout_.rows()};
    dims.insert(dims.end(), trailing.begin(), trailing.end());
    std::mt19937_64 rng(seed);
    return random_values(rng, Shape(dims), DataType::kFloat32, false);
  }
  TensorBuffer values(const Shape& shape, unsigned seed) {
    std::mt19937_64 rng(seed);
    return random_values(rng, shape, DataType::kFloat32, false);
  }
  ShardedTensor sharded(const TensorBuffer& global) {
    return ShardedTensor(world(), layout_, shard_of(global, layout_, rank_));
  }
  // Axis 0: compares every shard with the single-process result; true on every rank.
  bool axis0_matches(const TensorBuffer& tensor, const TensorBuffer& mask,
                     const TensorBuffer& updates, const BooleanMaskUpdateOptions& options = {}) {
    const TensorBuffer reference = tensorbuf::boolean_mask_update(tensor, mask, updates, options);
    ShardedTensor t = sharded(tensor);
    const ShardedTensor m = sharded(mask);
    dist::boolean_mask_update_in_place(t, m, updates, options);
    return all_ranks(same_bytes(t.local(), shard_of(reference, layout_, rank_)));
  }
  bool replicated_matches(const TensorBuffer& tensor, const TensorBuffer& mask,
                          const TensorBuffer& updates, const BooleanMaskUpdateOptions& options) {
    const TensorBuffer reference = tensorbuf::boolean_mask_update(tensor, mask, updates, options);
    ShardedTensor t = sharded(tensor);
    dist::boolean_mask_update_in_place(t, mask, updates, options);
    return all_ranks(same_bytes(t.local(), shard_of(reference, layout_, rank_)));
  }

  RowLayout layout_ = uneven_layout(world_size());
  int rank_ = world_rank();
};

TEST_F(DistMaskUpdate, D3_Axis0TakesTheRowsAfterTheOtherRanksTrueEntries) {
  const TensorBuffer tensor = full({3}, 1);
  const TensorBuffer mask = random_mask({layout_.rows()}, 2, 50);
  const TensorBuffer updates = values({count(mask), 3}, 3);
  EXPECT_TRUE(axis0_matches(tensor, mask, updates));
  EXPECT_TRUE(axis0_matches(tensor, mask, updates, {.broadcast = false}));
}

TEST_F(DistMaskUpdate, D3_Axis0WithAMaskOfRankTwo) {
  const TensorBuffer tensor = full({3, 2}, 4);
  const TensorBuffer mask = random_mask({layout_.rows(), 3}, 5, 40);
  EXPECT_TRUE(axis0_matches(tensor, mask, values({count(mask), 2}, 6)));
}

TEST_F(DistMaskUpdate, D3_Axis0BroadcastRowIsUsedByAllRanks) {
  const TensorBuffer tensor = full({3}, 7);
  const TensorBuffer mask = random_mask({layout_.rows()}, 8, 60);
  EXPECT_TRUE(axis0_matches(tensor, mask, values({1, 3}, 9)));
  EXPECT_TRUE(axis0_matches(tensor, mask, values({3}, 10)));
  EXPECT_TRUE(axis0_matches(tensor, mask, values({1}, 11)));
}

TEST_F(DistMaskUpdate, D3_Axis0WithNoTrueEntry) {
  const TensorBuffer tensor = full({3}, 12);
  const TensorBuffer mask = random_mask({layout_.rows()}, 13, 0);
  EXPECT_TRUE(axis0_matches(tensor, mask, values({0, 3}, 14)));
  EXPECT_TRUE(axis0_matches(tensor, mask, values({3}, 15)));
}

TEST_F(DistMaskUpdate, D3_Axis0MismatchedCountRaisesTheGlobalShapeErrorEverywhere) {
  const TensorBuffer tensor = full({3}, 16);
  const TensorBuffer mask = random_mask({layout_.rows()}, 17, 50);
  const TensorBuffer updates = values({count(mask) + 1, 3}, 18);
  const std::string expected =
      error_of([&] { tensorbuf::boolean_mask_update(tensor, mask, updates); });
  EXPECT_EQ(expected, "Incompatible shapes: [" + std::to_string(count(mask) + 1) + ",3] vs. [" +
                          std::to_string(count(mask)) + ",3]");
  ShardedTensor t = sharded(tensor);
  const ShardedTensor m = sharded(mask);
  EXPECT_EQ(error_of([&] { dist::boolean_mask_update_in_place(t, m, updates); }), expected);
  EXPECT_TRUE(all_ranks(same_bytes(t.local(), shard_of(tensor, layout_, rank_))));
}

TEST_F(DistMaskUpdate, D3_Axis0ErrorsOfTheSingleProcessOp) {
  const TensorBuffer tensor = full({3}, 19);
  ShardedTensor t = sharded(tensor);
  const ShardedTensor m =
      sharded(TensorBuffer::create_fixed_size({layout_.rows()}, DataType::kInt8));
  EXPECT_EQ(error_of([&] { dist::boolean_mask_update_in_place(t, m, values({1}, 20)); }),
            "Mask must be of dtype bool, got int8.");
  // Along axis 1 a mask of the row count fails the single-process shape check.
  const TensorBuffer row_mask = random_mask({layout_.rows()}, 21, 50);
  const ShardedTensor bool_mask = sharded(row_mask);
  EXPECT_EQ(error_of([&] {
              dist::boolean_mask_update_in_place(t, bool_mask, values({1}, 22), {.axis = 1});
            }),
            "Mask shape [" + std::to_string(layout_.rows()) +
                "] is not compatible with the required mask shape: [3].");
  // A sharded mask that fits along axis 1 is still refused: it goes along axis 0.
  const TensorBuffer square = full({layout_.rows()}, 41);
  ShardedTensor s = sharded(square);
  EXPECT_EQ(error_of([&] {
              dist::boolean_mask_update_in_place(s, bool_mask, values({1}, 42), {.axis = 1});
            }),
            "boolean_mask_update: a sharded mask goes along axis 0, got axis 1 (pass a "
            "replicated mask for axis >= 1)");
}

TEST_F(DistMaskUpdate, D3_UpdatesMustBeReplicated) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  const TensorBuffer tensor = full({3}, 23);
  ShardedTensor t = sharded(tensor);
  const ShardedTensor m = sharded(random_mask({layout_.rows()}, 24, 50));
  const TensorBuffer updates = values({rank_ == 1 ? 2 : 1, 3}, 25);
  EXPECT_EQ(error_of([&] { dist::boolean_mask_update_in_place(t, m, updates); }),
            "boolean_mask_update: rank 1 passes updates float32 [2,3], rank 0 float32 [1,3] "
            "(a replicated operand must be the same on every rank)");
}

TEST_F(DistMaskUpdate, D3_ReplicatedMaskAlongAxisOne) {
  const TensorBuffer tensor = full({4, 2}, 26);
  const TensorBuffer mask = random_mask({4}, 27, 50);
  const std::int64_t n = count(mask);
  const BooleanMaskUpdateOptions axis1{.axis = 1};
  EXPECT_TRUE(replicated_matches(tensor, mask, values({layout_.rows(), n, 2}, 28), axis1));
  EXPECT_TRUE(replicated_matches(tensor, mask, values({n, 2}, 29), axis1));
  EXPECT_TRUE(replicated_matches(tensor, mask, values({1, n, 2}, 30), axis1));
  EXPECT_TRUE(replicated_matches(tensor, mask, values({1, layout_.rows(), 1, 2}, 31), axis1));
  EXPECT_TRUE(replicated_matches(tensor, mask, values({layout_.rows(), n, 2}, 32),
                                 {.axis = 1, .broadcast = false}));
}

TEST_F(DistMaskUpdate, D3_ReplicatedMaskAlongTheLastAxis) {
  const TensorBuffer tensor = full({5}, 33);
  const TensorBuffer mask = random_mask({5}, 34, 50);
  EXPECT_TRUE(
      replicated_matches(tensor, mask, values({layout_.rows(), count(mask)}, 35), {.axis = -1}));
}

TEST_F(DistMaskUpdate, D3_ReplicatedMaskErrors) {
  const TensorBuffer tensor = full({4}, 36);
  ShardedTensor t = sharded(tensor);
  const TensorBuffer mask = random_mask({4}, 37, 50);
  const TensorBuffer wrong = values({layout_.rows(), count(mask) + 2}, 38);
  const std::string expected =
      error_of([&] { tensorbuf::boolean_mask_update(tensor, mask, wrong, {.axis = 1}); });
  EXPECT_EQ(error_of([&] { dist::boolean_mask_update_in_place(t, mask, wrong, {.axis = 1}); }),
            expected);
  const TensorBuffer row_mask = random_mask({layout_.rows()}, 39, 50);
  EXPECT_EQ(error_of([&] { dist::boolean_mask_update_in_place(t, row_mask, values({1}, 40)); }),
            "boolean_mask_update: a replicated mask goes along axis >= 1, got axis 0 (shard the "
            "mask for axis 0)");
  EXPECT_TRUE(all_ranks(same_bytes(t.local(), shard_of(tensor, layout_, rank_))));
}

}  // namespace
}  // namespace tensorbuf::dist::testing
