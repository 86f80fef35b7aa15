// D3: collective errors. Every rank throws the same error class and message, before any data
// moves (nothing written anywhere), and no rank is left waiting (ctest's TIMEOUT is the
// backstop for a hang).
#include "mpi/scatter_cases.hpp"

namespace tensorbuf::dist::testing {
namespace {

class DistScatterErrors : public ::testing::Test {
 protected:
  // Uneven layout, float32 [rows, 4], each rank's own indices and updates from fixed seeds.
  void SetUp() override {
    c_ = ScatterCase{.layout = uneven_layout(world_size()),
                     .seed = 7};  // int32 indices, rows on every rank
    in_ = generate(c_);
    rank_ = world_rank();
  }
  // Rank q's indices with row `row` replaced by `value`.
  void set_index(int q, std::int64_t row, std::int64_t value) {
    ASSERT_LT(row, in_.indices[q].flat_size());
    in_.indices[q].mutable_host<std::int32_t>()[row] = static_cast<std::int32_t>(value);
  }
  ShardedTensor sharded() {
    return ShardedTensor(world(), c_.layout, shard_of(in_.full, c_.layout, rank_));
  }
  // The single-process CPU op's message on the concatenated inputs.
  std::string single_process_error() {
    return error_of([&] {
      tensorbuf::tensor_scatter_nd_add(in_.full, concat(in_.indices), concat(in_.updates),
                                       {.device = Device::cpu()});
    });
  }

  ScatterCase c_;
  ScatterInputs in_;
  int rank_ = 0;
};

TEST_F(DistScatterErrors, D3_FirstBadRowIsTheGlobalMinimumOnEveryRank) {
  // Bad rows on rank 2 (or the last rank) and on rank 0: rank 0's comes first globally.
  const int late = std::min(2, world_size() - 1);
  set_index(late, 0, -1);
  set_index(0, 1, c_.layout.rows() + 7);
  const std::string expected = single_process_error();
  ASSERT_NE(expected, "(no error)");
  ShardedTensor tensor = sharded();
  ErrorCode code = ErrorCode::kInternal;
  EXPECT_EQ(error_of(
                [&] {
                  dist::tensor_scatter_nd_add_in_place(tensor, in_.indices[rank_],
                                                       in_.updates[rank_]);
                },
                &code),
            expected);
  EXPECT_EQ(code, ErrorCode::kInvalidArgument);
  EXPECT_TRUE(all_ranks(same_bytes(tensor.local(), shard_of(in_.full, c_.layout, rank_))));
}

TEST_F(DistScatterErrors, D3_BadRowOnALaterRankIsNamedByItsGlobalPosition) {
  const int late = std::min(2, world_size() - 1);
  set_index(late, 0, c_.layout.rows());
  const std::string expected = single_process_error();
  ShardedTensor tensor = sharded();
  const std::string text = error_of([&] {
    dist::tensor_scatter_nd_add_in_place(tensor, in_.indices[rank_], in_.updates[rank_]);
  });
  EXPECT_EQ(text, expected);
  EXPECT_TRUE(same_on_all_ranks(text));
  EXPECT_TRUE(all_ranks(same_bytes(tensor.local(), shard_of(in_.full, c_.layout, rank_))));
}

TEST_F(DistScatterErrors, D3_WrongDtypeOnOneRankRaisesOnEveryRank) {
  const int last = world_size() - 1;
  if (rank_ == last)
    in_.updates[rank_] = TensorBuffer::create_from(in_.updates[rank_], DataType::kFloat64);
  ShardedTensor tensor = sharded();
  ErrorCode code = ErrorCode::kInternal;
  const std::string text = error_of(
      [&] { dist::tensor_scatter_nd_add_in_place(tensor, in_.indices[rank_], in_.updates[rank_]); },
      &code);
  const std::string single =
      "tensor_scatter_nd_add: updates dtype float64 does not match tensor dtype float32";
  EXPECT_EQ(text, last == 0 ? single : single + " (on rank " + std::to_string(last) + ")");
  EXPECT_EQ(code, ErrorCode::kInvalidArgument);
  EXPECT_TRUE(all_ranks(same_bytes(tensor.local(), shard_of(in_.full, c_.layout, rank_))));
}

TEST_F(DistScatterErrors, D3_IndicesThatCannotBeConcatenated) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  // int64 indices on rank 1, int32 elsewhere: each rank's call alone is valid.
  in_.indices[1] = TensorBuffer::create_from(in_.indices[1], DataType::kInt64);
  ShardedTensor tensor = sharded();
  const std::string text = error_of([&] {
    dist::tensor_scatter_nd_add_in_place(tensor, in_.indices[rank_], in_.updates[rank_]);
  });
  EXPECT_EQ(text.rfind("tensor_scatter_nd_add: rank 1's indices int64 [", 0), 0u) << text;
  EXPECT_TRUE(same_on_all_ranks(text));
}

TEST_F(DistScatterErrors, D3_RanksMustAgreeOnThePolicy) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  ShardedTensor tensor = sharded();
  const ScatterOptions options{.out_of_bounds = rank_ == 0 ? OutOfBoundsPolicy::kDrop
                                                           : OutOfBoundsPolicy::kError};
  EXPECT_EQ(error_of([&] {
              dist::tensor_scatter_nd_add_in_place(tensor, in_.indices[rank_], in_.updates[rank_],
                                                   options);
            }),
            "tensor_scatter_nd_add: the ranks disagree on the out-of-bounds policy: rank 0 has "
            "drop, rank 1 error");
}

TEST_F(DistScatterErrors, D3_UnusableDeviceOnOneRankRaisesOnEveryRank) {
  if (cuda_available()) GTEST_SKIP() << "CUDA is usable here";
  ShardedTensor tensor = sharded();
  const ScatterOptions options{.device =
                                   rank_ == world_size() - 1 ? Device::cuda() : Device::cpu()};
  ErrorCode code = ErrorCode::kInternal;
  const std::string text = error_of(
      [&] {
        dist::tensor_scatter_nd_add_in_place(tensor, in_.indices[rank_], in_.updates[rank_],
                                             options);
      },
      &code);
  EXPECT_EQ(code, ErrorCode::kUnavailable);
  EXPECT_TRUE(same_on_all_ranks(text));
}

TEST_F(DistScatterErrors, D3_IndicesNeedARowDimension) {
  ShardedTensor tensor = sharded();
  const TensorBuffer indices = make<std::int64_t>(Shape{1}, {0});
  const TensorBuffer updates = make<float>(Shape{4}, {1, 2, 3, 4});
  EXPECT_EQ(error_of([&] { dist::tensor_scatter_nd_add_in_place(tensor, indices, updates); }),
            "tensor_scatter_nd_add: distributed indices need rank >= 2 ([rows, ..., depth]), got "
            "shape [1]");
}

TEST_F(DistScatterErrors, D3_ALocalTensorThatNoLongerFitsTheLayout) {
  ShardedTensor tensor = sharded();
  const int last = world_size() - 1;
  if (rank_ == last)
    tensor.local() =
        TensorBuffer::create_fixed_size({c_.layout.rows_of(last), 5}, DataType::kFloat32);
  const std::string text = error_of([&] {
    dist::tensor_scatter_nd_add_in_place(tensor, in_.indices[rank_], in_.updates[rank_]);
  });
  if (last > 0) {
    EXPECT_EQ(
        text.rfind(
            "tensor_scatter_nd_add: rank " + std::to_string(last) + "'s local tensor float32 [", 0),
        0u)
        << text;
  }
  EXPECT_TRUE(same_on_all_ranks(text));
}

}  // namespace
}  // namespace tensorbuf::dist::testing
