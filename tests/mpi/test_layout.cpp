// D2: Comm, RowLayout and ShardedTensor.
#include "mpi/helpers.hpp"

namespace tensorbuf::dist::testing {
namespace {

TEST(DistLayout, D2_CommDuplicatesTheCallersCommunicator) {
  const Comm comm = world();
  int result = MPI_UNEQUAL;
  MPI_Comm_compare(comm.get(), MPI_COMM_WORLD, &result);
  EXPECT_EQ(result, MPI_CONGRUENT);
  EXPECT_EQ(comm.rank(), world_rank());
  EXPECT_EQ(comm.size(), world_size());
  const Comm copy = comm;  // copies share the duplicate
  EXPECT_EQ(copy.get(), comm.get());
}

TEST(DistLayout, D2_BlockGivesTheFirstRanksOneMoreRow) {
  EXPECT_EQ(RowLayout::block(10, 4).offsets, (std::vector<std::int64_t>{0, 3, 6, 8, 10}));
  EXPECT_EQ(RowLayout::block(2, 4).offsets, (std::vector<std::int64_t>{0, 1, 2, 2, 2}));
  EXPECT_EQ(RowLayout::block(0, 1).offsets, (std::vector<std::int64_t>{0, 0}));
  EXPECT_EQ(error_of([] { RowLayout::block(-1, 2); }),
            "RowLayout::block: need rows >= 0 and ranks >= 1, got rows = -1, ranks = 2");
}

TEST(DistLayout, D2_OwnerSkipsZeroRowRanks) {
  const RowLayout layout{{0, 5, 5, 8, 15}};
  EXPECT_EQ(layout.owner(0), 0);
  EXPECT_EQ(layout.owner(4), 0);
  EXPECT_EQ(layout.owner(5), 2);
  EXPECT_EQ(layout.owner(14), 3);
  ErrorCode code = ErrorCode::kInternal;
  EXPECT_EQ(error_of([&] { layout.owner(15); }, &code), "RowLayout: row 15 outside [0, 15)");
  EXPECT_EQ(code, ErrorCode::kOutOfRange);
}

TEST(DistLayout, D2_FromLocalConcatenatesInRankOrder) {
  const RowLayout layout = RowLayout::from_local(world(), world_rank() + 1);
  std::vector<std::int64_t> expected = {0};
  for (int q = 0; q < world_size(); ++q) expected.push_back(expected.back() + q + 1);
  EXPECT_EQ(layout.offsets, expected);
  // A negative count on the last rank: the same error on every rank.
  const std::string text =
      error_of([] { RowLayout::from_local(world(), world_rank() == world_size() - 1 ? -3 : 1); });
  EXPECT_EQ(text, "RowLayout::from_local: rank " + std::to_string(world_size() - 1) +
                      " has -3 local rows (must be >= 0)");
}

TEST(DistLayout, D2_ShardedTensorGlobalShape) {
  const RowLayout layout = uneven_layout(world_size());
  const int rank = world_rank();
  ShardedTensor t(world(), layout,
                  TensorBuffer::create_fixed_size({layout.rows_of(rank), 3}, DataType::kInt16));
  EXPECT_EQ(t.global_shape(), (Shape{layout.rows(), 3}));
  EXPECT_EQ(t.local().shape(), (Shape{layout.rows_of(rank), 3}));
}

TEST(DistLayout, D2_ShardedTensorChecksEveryRankCollectively) {
  const RowLayout layout = RowLayout::block(2 * world_size(), world_size());
  const int last = world_size() - 1;
  // Wrong trailing dims on the last rank only.
  const std::string dims = error_of([&] {
    const std::int64_t width = world_rank() == last && last > 0 ? 4 : 3;
    ShardedTensor t(world(), layout,
                    TensorBuffer::create_fixed_size({2, width}, DataType::kFloat32));
  });
  if (last > 0) {
    EXPECT_EQ(dims, "ShardedTensor: rank " + std::to_string(last) +
                        "'s local tensor float32 [2,4] on cpu does not match rank 0's float32 "
                        "[2,3] on cpu (dtype, dims after the first and device kind must agree)");
  }
  // Wrong row count on the last rank only.
  const std::string rows = error_of([&] {
    const std::int64_t n = world_rank() == last ? 5 : 2;
    ShardedTensor t(world(), layout, TensorBuffer::create_fixed_size({n, 3}, DataType::kFloat32));
  });
  EXPECT_EQ(rows, "ShardedTensor: rank " + std::to_string(last) +
                      " holds 5 rows but the layout gives it 2");
  EXPECT_TRUE(same_on_all_ranks(rows));
  // A layout of the wrong size.
  EXPECT_EQ(error_of([&] {
              ShardedTensor t(world(), RowLayout::block(3, world_size() + 1),
                              TensorBuffer::create_fixed_size({1}, DataType::kFloat32));
            }),
            "ShardedTensor: the layout has " + std::to_string(world_size() + 1) +
                " ranks, the communicator " + std::to_string(world_size()));
}

}  // namespace
}  // namespace tensorbuf::dist::testing
