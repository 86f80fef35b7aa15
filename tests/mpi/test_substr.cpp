// D3: distributed substr equals the single-process substr of the gathered strings; errors name
// the global flat index; string .npy files written and read through MPI-IO.
#include <unistd.h>

#include <fstream>
#include <iterator>

#include "mpi/helpers.hpp"

namespace tensorbuf::dist::testing {
namespace {

// Rows [begin, end) of `full` (dim 0).
StringTensor string_rows(const StringTensor& full, std::int64_t begin, std::int64_t end) {
  std::vector<std::int64_t> dims = full.shape().dims();
  const std::int64_t per_row = dims[0] == 0 ? 0 : full.size() / dims[0];
  dims[0] = end - begin;
  const std::vector<std::string> all = full.to_strings();
  return StringTensor::from_strings(
      std::vector<std::string>(all.begin() + begin * per_row, all.begin() + end * per_row),
      Shape(dims));
}

bool same_strings(const StringTensor& a, const StringTensor& b) {
  return a.shape() == b.shape() && a.to_strings() == b.to_strings();
}

StringTensor random_strings(const Shape& shape, unsigned seed) {
  static const std::vector<std::string> kPieces = {"a",   "bc", "\xc3\xa9", "\xe2\x82\xac",
                                                   "xyz", "",   "Q",        "\xf0\x9f\x98\x80"};
  std::mt19937_64 rng(seed);
  std::vector<std::string> values(static_cast<std::size_t>(shape.num_elements()));
  for (std::string& v : values) {
    const int n = static_cast<int>(rng() % 5);
    for (int i = 0; i < n; ++i) v += kPieces[rng() % kPieces.size()];
  }
  return StringTensor::from_strings(values, shape);
}

class DistSubstr : public ::testing::Test {
 protected:
  ShardedStrings sharded(const StringTensor& full) {
    return ShardedStrings(world(), layout_,
                          string_rows(full, layout_.offsets[rank_], layout_.offsets[rank_ + 1]));
  }
  bool matches(const StringTensor& full, const TensorBuffer& pos, const TensorBuffer& len,
               const SubstrOptions& options) {
    const StringTensor reference = tensorbuf::substr(full, pos, len, options);
    const ShardedStrings out = dist::substr(sharded(full), pos, len, options);
    return all_ranks(same_strings(
        out.local(), string_rows(reference, layout_.offsets[rank_], layout_.offsets[rank_ + 1])));
  }
  RowLayout layout_ = uneven_layout(world_size());
  int rank_ = world_rank();
};

TEST_F(DistSubstr, D3_EqualsSingleProcessWithRowAndBroadcastPositions) {
  const StringTensor full = random_strings({layout_.rows(), 2}, 1);
  const std::int64_t rows = layout_.rows();
  std::vector<std::int32_t> pos(static_cast<std::size_t>(rows * 2)), len(pos.size());
  std::mt19937_64 rng(2);
  for (std::size_t i = 0; i < pos.size(); ++i) {
    pos[i] = static_cast<std::int32_t>(rng() % 2);
    len[i] = static_cast<std::int32_t>(rng() % 4) - 1;
  }
  for (const SubstrUnit unit : {SubstrUnit::kByte, SubstrUnit::kUtf8Char}) {
    const SubstrOptions drop{.unit = unit, .out_of_bounds = OutOfBoundsPolicy::kDrop};
    EXPECT_TRUE(matches(full, make<std::int32_t>({rows, 2}, pos),
                        make<std::int32_t>({rows, 2}, len), drop));
    EXPECT_TRUE(
        matches(full, make<std::int32_t>({2}, {0, 1}), make<std::int32_t>({2}, {2, -1}), drop));
    EXPECT_TRUE(
        matches(full, make<std::int64_t>({}, {0}), make<std::int64_t>({}, {1}), {.unit = unit}));
    EXPECT_TRUE(matches(full, make<std::int32_t>({rows, 1}, std::vector<std::int32_t>(rows, 0)),
                        make<std::int32_t>({rows, 1}, std::vector<std::int32_t>(rows, 2)),
                        {.unit = unit}));
  }
}

TEST_F(DistSubstr, D3_BroadcastMayWidenTrailingDimsButNotDimZero) {
  const StringTensor full = random_strings({layout_.rows(), 1}, 3);
  EXPECT_TRUE(
      matches(full, make<std::int32_t>({3}, {0, 0, 0}), make<std::int32_t>({3}, {1, 2, 3}), {}));
  const StringTensor flat = random_strings({layout_.rows()}, 4);
  const TensorBuffer pos = make<std::int32_t>({2, 1}, {0, 0});
  EXPECT_EQ(error_of([&] { dist::substr(sharded(flat), pos, pos); }),
            "substr: pos and len of shape [2,1] broadcast against the input shape [" +
                std::to_string(layout_.rows()) + "] give [2," + std::to_string(layout_.rows()) +
                "]; dim 0 must stay the input's (its rows are sharded)");
}

TEST_F(DistSubstr, D3_OutOfRangeIsNamedByItsGlobalIndexOnEveryRank) {
  // The second string of each row of the last rank that has rows gets pos 99.
  const StringTensor full = random_strings({layout_.rows(), 2}, 5);
  const std::int64_t rows = layout_.rows();
  int last = world_size() - 1;
  while (layout_.rows_of(last) == 0) --last;
  std::vector<std::int64_t> pos(static_cast<std::size_t>(rows * 2), 0);
  for (std::int64_t r = layout_.offsets[last]; r < rows; ++r) pos[r * 2 + 1] = 99;
  const TensorBuffer p = make<std::int64_t>({rows, 2}, pos);
  const TensorBuffer l = make<std::int64_t>({rows, 2}, std::vector<std::int64_t>(pos.size(), 1));
  const std::string expected = error_of([&] { tensorbuf::substr(full, p, l); });
  ASSERT_NE(expected, "(no error)");
  EXPECT_EQ(error_of([&] { dist::substr(sharded(full), p, l); }), expected);
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST_F(DistSubstr, D4_StringFilesAreTheSingleProcessOnes) {
  std::int64_t pid = ::getpid();
  MPI_Bcast(&pid, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  const std::string base = ::testing::TempDir() + "tensorbuf_dist_" + std::to_string(pid);
  const StringTensor full = random_strings({layout_.rows(), 3}, 6);
  if (rank_ == 0) tensorbuf::save_npy(base + "_single_s.npy", full);
  dist::save_npy(base + "_dist_s.npy", sharded(full));
  bool same = true;
  if (rank_ == 0) same = file_bytes(base + "_single_s.npy") == file_bytes(base + "_dist_s.npy");
  EXPECT_TRUE(all_ranks(same));
  const ShardedStrings back = dist::load_npy_strings(world(), base + "_single_s.npy");
  const RowLayout block = RowLayout::block(layout_.rows(), world_size());
  EXPECT_TRUE(all_ranks(same_strings(
      back.local(), string_rows(full, block.offsets[rank_], block.offsets[rank_ + 1]))));
  EXPECT_EQ(error_of([&] {
              dist::load_npy(world(), base + "_single_s.npy");
            }).rfind("load_npy: '" + base + "_single_s.npy' holds byte strings (dtype |S", 0),
            0u);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank_ == 0) {
    std::remove((base + "_single_s.npy").c_str());
    std::remove((base + "_dist_s.npy").c_str());
  }
}

}  // namespace
}  // namespace tensorbuf::dist::testing
