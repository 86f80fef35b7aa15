// D3/D4: save_npy and load_npy through MPI-IO, byte-identical to the single-process files.
#include <unistd.h>

#include <fstream>
#include <iterator>

#include "mpi/scatter_cases.hpp"

namespace tensorbuf::dist::testing {
namespace {

// A file name under the temporary directory, the same on every rank.
std::string shared_name(const std::string& stem) {
  std::int64_t pid = ::getpid();
  MPI_Bcast(&pid, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  return ::testing::TempDir() + "tensorbuf_dist_" + std::to_string(pid) + "_" + stem + ".npy";
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(DistNpy, D4_SaveWritesTheSingleProcessFileByteForByte) {
  const RowLayout layout = uneven_layout(world_size());
  std::mt19937_64 rng(8);
  int k = 0;
  for (const auto& [dtype, trailing] :
       std::vector<std::pair<DataType, std::vector<std::int64_t>>>{{DataType::kFloat32, {3}},
                                                                   {DataType::kInt16, {2, 2}},
                                                                   {DataType::kFloat16, {}},
                                                                   {DataType::kBool, {5}},
                                                                   {DataType::kFloat64, {0}}}) {
    std::vector<std::int64_t> dims = {layout.rows()};
    dims.insert(dims.end(), trailing.begin(), trailing.end());
    TensorBuffer full = random_values(rng, Shape(dims), dtype, true);
    if (dtype == DataType::kBool && full.flat_size() > 0) full.mutable_host<std::uint8_t>()[0] = 2;
    const std::string single = shared_name("single" + std::to_string(k));
    const std::string sharded = shared_name("sharded" + std::to_string(k++));
    if (world_rank() == 0) tensorbuf::save_npy(single, full);
    const ShardedTensor t(world(), layout, shard_of(full, layout, world_rank()));
    dist::save_npy(sharded, t);
    bool same = true;
    if (world_rank() == 0) {
      same = file_bytes(single) == file_bytes(sharded) && !file_bytes(single).empty();
      EXPECT_TRUE(same) << to_string(dtype);
    }
    EXPECT_TRUE(all_ranks(same));
    // ... and reads back as the block layout's shards.
    const ShardedTensor back = dist::load_npy(world(), single);
    const RowLayout block = RowLayout::block(layout.rows(), world_size());
    EXPECT_EQ(back.layout(), block);
    const TensorBuffer expected = tensorbuf::load_npy_tensor(single);
    EXPECT_TRUE(all_ranks(same_bytes(back.local(), shard_of(expected, block, world_rank()))));
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_rank() == 0) {
      std::remove(single.c_str());
      std::remove(sharded.c_str());
    }
  }
}

TEST(DistNpy, D4_LoadConvertsABigEndianFile) {
  const std::string path = shared_name("big");
  std::mt19937_64 rng(9);
  const TensorBuffer full = random_values(rng, Shape{7, 2}, DataType::kInt32, false);
  if (world_rank() == 0) tensorbuf::save_npy(path, full, {.big_endian = true});
  MPI_Barrier(MPI_COMM_WORLD);
  const ShardedTensor back = dist::load_npy(world(), path);
  EXPECT_TRUE(all_ranks(same_bytes(back.local(), shard_of(full, back.layout(), world_rank()))));
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) std::remove(path.c_str());
}

TEST(DistNpy, D3_FileErrorsOnEveryRank) {
  const std::string missing = ::testing::TempDir() + "tensorbuf_no_such_dir/x.npy";
  ErrorCode code = ErrorCode::kInternal;
  const std::string load = error_of([&] { dist::load_npy(world(), missing); }, &code);
  EXPECT_EQ(code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(load.rfind("load_npy: cannot open '" + missing + "': ", 0), 0u) << load;
  EXPECT_TRUE(same_on_all_ranks(load));
  const RowLayout layout = RowLayout::block(3, world_size());
  const ShardedTensor t(
      world(), layout,
      TensorBuffer::create_fixed_size({layout.rows_of(world_rank())}, DataType::kInt8));
  const std::string save = error_of([&] { dist::save_npy(missing, t); }, &code);
  EXPECT_EQ(code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(save.rfind("save_npy: cannot create '" + missing + "': ", 0), 0u) << save;
  const std::string scalar = shared_name("scalar");
  if (world_rank() == 0)
    tensorbuf::save_npy(scalar, TensorBuffer::create_fixed_size({}, DataType::kInt8));
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_EQ(error_of([&] { dist::load_npy(world(), scalar); }),
            "load_npy: '" + scalar + "' holds a 0-d array; a sharded tensor needs rank >= 1");
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) std::remove(scalar.c_str());
}

TEST(DistNpy, D4_SaveInPlaceWritesTheRowsIntoTheFileOrNothing) {
  const RowLayout layout = uneven_layout(world_size());
  std::mt19937_64 rng(9);
  const TensorBuffer before =
      random_values(rng, Shape{layout.rows(), 3}, DataType::kFloat32, false);
  const TensorBuffer after = random_values(rng, Shape{layout.rows(), 3}, DataType::kFloat32, false);
  const std::string path = shared_name("in_place");
  const std::string big = shared_name("in_place_big");
  if (world_rank() == 0) {
    tensorbuf::save_npy(path, before);
    tensorbuf::save_npy(big, before, {.big_endian = true});
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const ShardedTensor t(world(), layout, shard_of(after, layout, world_rank()));
  dist::save_npy_in_place(path, t);
  bool same = true;
  if (world_rank() == 0) {
    tensorbuf::save_npy(path + ".expected", after);
    same = file_bytes(path) == file_bytes(path + ".expected");
  }
  EXPECT_TRUE(all_ranks(same));
  // The other byte order, another shape or dtype: the same error everywhere, nothing written.
  const std::string big_bytes = file_bytes(big);
  EXPECT_EQ(error_of([&] { dist::save_npy_in_place(big, t); }),
            big + ": dtype >f4 is in the other byte order; load_npy_tensor converts it");
  EXPECT_TRUE(all_ranks(file_bytes(big) == big_bytes));
  const ShardedTensor wide(
      world(), layout,
      TensorBuffer::create_fixed_size({layout.rows_of(world_rank()), 4}, DataType::kFloat32));
  EXPECT_EQ(error_of([&] { dist::save_npy_in_place(path, wide); }),
            "save_npy_in_place: '" + path + "' holds <f4 [" + std::to_string(layout.rows()) +
                ",3], not the tensor's float32 [" + std::to_string(layout.rows()) + ",4]");
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) {
    std::remove(path.c_str());
    std::remove((path + ".expected").c_str());
    std::remove(big.c_str());
  }
}

}  // namespace
}  // namespace tensorbuf::dist::testing
