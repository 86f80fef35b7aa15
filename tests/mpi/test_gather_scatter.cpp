// D3: gather and scatter move rows exactly, also in forced rounds.
#include "mpi/exchange.hpp"
#include "mpi/scatter_cases.hpp"

namespace tensorbuf::dist::testing {
namespace {

TEST(DistGatherScatter, D3_ScatterThenGatherGivesTheBytesBack) {
  const RowLayout layout = uneven_layout(world_size());
  std::mt19937_64 rng(5);
  for (const DataType dtype : {DataType::kFloat32, DataType::kBool, DataType::kFloat16}) {
    for (const int root : {0, world_size() - 1}) {
      const TensorBuffer full = random_values(rng, Shape{layout.rows(), 3, 2}, dtype, true);
      const ShardedTensor t =
          dist::scatter(world(), world_rank() == root ? &full : nullptr, layout, root);
      EXPECT_TRUE(all_ranks(same_bytes(t.local(), shard_of(full, layout, world_rank()))));
      const std::optional<TensorBuffer> back = dist::gather(t, root);
      EXPECT_EQ(back.has_value(), world_rank() == root);
      if (back) {
        EXPECT_TRUE(same_bytes(*back, full));
      }
    }
  }
}

TEST(DistGatherScatter, D4_GatherInRounds) {
  const RowLayout layout = uneven_layout(world_size());
  std::mt19937_64 rng(6);
  const TensorBuffer full = random_values(rng, Shape{layout.rows(), 2}, DataType::kFloat64, false);
  const ShardedTensor t(world(), layout, shard_of(full, layout, world_rank()));
  detail::set_round_limit_for_testing(2);
  const std::optional<TensorBuffer> back = dist::gather(t, 0);
  const int calls = detail::last_exchange_calls_for_testing();
  detail::set_round_limit_for_testing(0);
  EXPECT_GT(calls, 1);
  if (back) {
    EXPECT_TRUE(same_bytes(*back, full));
  }
}

TEST(DistGatherScatter, D3_ErrorsOnEveryRank) {
  const RowLayout layout = RowLayout::block(4, world_size());
  const TensorBuffer full = TensorBuffer::create_fixed_size({5, 2}, DataType::kInt32);
  EXPECT_EQ(error_of([&] { dist::scatter(world(), &full, layout, 0); }),
            "scatter: the layout must have " + std::to_string(world_size()) +
                " ranks and the 5 rows of the root's tensor int32 [5,2]");
  EXPECT_EQ(error_of([&] { dist::scatter(world(), nullptr, layout, 0); }),
            "scatter: the root (rank 0) passed no tensor");
  EXPECT_EQ(error_of([&] { dist::scatter(world(), &full, layout, world_size()); }),
            "scatter: root " + std::to_string(world_size()) +
                " is not a rank of a communicator of " + std::to_string(world_size()));
  if (world_size() > 1) {
    EXPECT_EQ(error_of([&] {
                dist::gather(ShardedTensor(world(), RowLayout::block(0, world_size()),
                                           TensorBuffer::create_fixed_size({0}, DataType::kInt8)),
                             world_rank() == 1 ? 1 : 0);
              }),
              "gather: the ranks disagree on the root: rank 0 has 0, rank 1 1");
  }
}

}  // namespace
}  // namespace tensorbuf::dist::testing
