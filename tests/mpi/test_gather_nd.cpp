// spec/indexing.md 6: a distributed gather_nd equals the single-process op on the gathered
// params with every rank's indices concatenated in rank order, bit for bit. Each rank's result
// is compared byte for byte with its rows of a plain-loop reference written here (and of the
// single-process tensorbuf::gather_nd, which the rule names).
#include "mpi/collective.hpp"
#include "mpi/exchange.hpp"
#include "mpi/helpers.hpp"

namespace tensorbuf::dist::testing {
namespace {

struct GatherCase {
  DataType dtype = DataType::kFloat32;
  RowLayout layout;                          // of params' dim 0
  std::vector<std::int64_t> params_rest;     // params dims after the first
  int batch_dims = 0;
  int depth = 1;
  std::vector<std::int64_t> indices_middle;  // indices dims between the batch dims and depth
  DataType index_dtype = DataType::kInt64;
  double bad_share = 0;                      // rows with a component out of range
  unsigned seed = 1;
};

// `values` as an int32 or int64 buffer (or any dtype narrow enough for them, float32 too).
TensorBuffer index_buffer(const Shape& shape, const std::vector<std::int64_t>& values,
                          DataType dtype) {
  if (dtype == DataType::kInt64) return make(shape, values);
  if (dtype == DataType::kFloat32) return make(shape, std::vector<float>(values.begin(), values.end()));
  return make(shape, std::vector<std::int32_t>(values.begin(), values.end()));
}

struct GatherInputs {
  TensorBuffer params = TensorBuffer::create_dynamic(DataType::kFloat32);  // global
  std::vector<TensorBuffer> indices;                                       // per rank
};

// Rank q's rows of indices dim 0: batch_dims 0: 3, 0, 6, 2, ...; else a split of the batch rows
// that differs from params' layout (the last ranks take more).
std::vector<std::int64_t> index_rows(const GatherCase& c, int ranks) {
  std::vector<std::int64_t> out(static_cast<std::size_t>(ranks));
  if (c.batch_dims == 0) {
    static constexpr std::int64_t kRows[] = {3, 0, 6, 2, 5};
    for (int q = 0; q < ranks; ++q) out[static_cast<std::size_t>(q)] = kRows[q % 5];
    return out;
  }
  const RowLayout split = RowLayout::block(c.layout.rows(), ranks);
  for (int q = 0; q < ranks; ++q) out[static_cast<std::size_t>(ranks - 1 - q)] = split.rows_of(q);
  return out;
}

GatherInputs generate(const GatherCase& c, int ranks) {
  std::mt19937_64 rng(c.seed * 7919u + static_cast<unsigned>(ranks));
  GatherInputs in;
  std::vector<std::int64_t> pdims = c.params_rest;
  pdims.insert(pdims.begin(), c.layout.rows());
  in.params = TensorBuffer::create_fixed_size(Shape(pdims), c.dtype);
  if (in.params.size_bytes() != 0) {
    auto* bytes = static_cast<std::uint8_t*>(in.params.overwrite_host_bytes());
    for (std::size_t i = 0; i < in.params.size_bytes(); ++i) {
      // Any bit pattern (NaN payloads included); bool stays 0 / 1.
      bytes[i] = c.dtype == DataType::kBool ? static_cast<std::uint8_t>(rng() & 1)
                                            : static_cast<std::uint8_t>(rng());
    }
  }
  for (const std::int64_t rows : index_rows(c, ranks)) {
    std::vector<std::int64_t> idims{rows};
    for (int i = 1; i < c.batch_dims; ++i) idims.push_back(pdims[static_cast<std::size_t>(i)]);
    idims.insert(idims.end(), c.indices_middle.begin(), c.indices_middle.end());
    idims.push_back(c.depth);
    const Shape shape(idims);
    std::vector<std::int64_t> values(static_cast<std::size_t>(shape.num_elements()));
    for (std::size_t i = 0; i < values.size(); ++i) {
      const std::int64_t bound = pdims[static_cast<std::size_t>(c.batch_dims) + i % c.depth];
      const bool bad = std::uniform_real_distribution<double>(0, 1)(rng) < c.bad_share;
      values[i] = bad ? (rng() % 2 == 0 ? -1 - static_cast<std::int64_t>(rng() % 3)
                                        : bound + static_cast<std::int64_t>(rng() % 3))
                      : static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(
                                                              std::max<std::int64_t>(bound, 1)));
    }
    in.indices.push_back(index_buffer(shape, values, c.index_dtype));
  }
  return in;
}

// The plain-loop gather_nd of `params` and (all) `indices`: out row g is params' slice at
// batch g / R, offset by the components; a row with a component out of range reads zeros.
TensorBuffer reference(const TensorBuffer& params, const TensorBuffer& indices, int b) {
  const std::vector<std::int64_t> p = params.shape().dims();
  const std::vector<std::int64_t> x = indices.shape().dims();
  const int depth = static_cast<int>(x.back());
  std::vector<std::int64_t> odims(x.begin(), x.end() - 1);
  odims.insert(odims.end(), p.begin() + b + depth, p.end());
  TensorBuffer out = TensorBuffer::create_fixed_size(Shape(odims), params.data_type());
  std::int64_t rows = 1, per_batch = 1, slice = 1, slices_per_batch = 1;
  for (std::size_t i = 0; i + 1 < x.size(); ++i) rows *= x[i];
  for (std::size_t i = static_cast<std::size_t>(b); i + 1 < x.size(); ++i) per_batch *= x[i];
  for (std::size_t i = static_cast<std::size_t>(b + depth); i < p.size(); ++i) slice *= p[i];
  for (int i = b; i < b + depth; ++i) slices_per_batch *= p[static_cast<std::size_t>(i)];
  const std::size_t slice_bytes = static_cast<std::size_t>(slice) * params.type_size();
  if (out.size_bytes() == 0) return out;
  std::vector<std::int64_t> comps(static_cast<std::size_t>(indices.flat_size()));
  for (std::size_t i = 0; i < comps.size(); ++i) {
    comps[i] = indices.data_type() == DataType::kInt64
                   ? indices.host<std::int64_t>()[i]
                   : static_cast<std::int64_t>(indices.host<std::int32_t>()[i]);
  }
  const auto* src = static_cast<const std::uint8_t*>(params.host_bytes());
  auto* dst = static_cast<std::uint8_t*>(out.overwrite_host_bytes());
  for (std::int64_t g = 0; g < rows; ++g) {
    std::int64_t offset = 0;  // row-major over params.shape[b:b+D]
    bool bad = false;
    for (int i = 0; i < depth; ++i) {
      const std::int64_t v = comps[static_cast<std::size_t>(g * depth + i)];
      const std::int64_t bound = p[static_cast<std::size_t>(b + i)];
      bad = bad || v < 0 || v >= bound;
      offset = offset * bound + v;
    }
    const std::int64_t at = (g / per_batch) * slices_per_batch + offset;
    std::uint8_t* row = dst + static_cast<std::size_t>(g) * slice_bytes;
    if (bad) {
      std::memset(row, 0, slice_bytes);
    } else {
      std::memcpy(row, src + static_cast<std::size_t>(at) * slice_bytes, slice_bytes);
    }
  }
  return out;
}

// This rank's rows of a global result: the rows its indices asked for.
TensorBuffer my_rows(const TensorBuffer& global, const std::vector<TensorBuffer>& indices,
                     int rank) {
  std::int64_t begin = 0;
  for (int q = 0; q < rank; ++q) begin += indices[static_cast<std::size_t>(q)].shape()[0];
  return rows_of(global, begin, begin + indices[static_cast<std::size_t>(rank)].shape()[0]);
}

// Runs the distributed op on `c` and compares this rank's result with its rows of the
// plain-loop reference and of the single-process op. True on every rank iff all matched.
bool matches_reference(const GatherCase& c, OutOfBoundsPolicy policy = OutOfBoundsPolicy::kError) {
  const int rank = world_rank();
  const GatherInputs in = generate(c, world_size());
  const TensorBuffer all_indices = concat(in.indices);
  const TensorBuffer expected = my_rows(reference(in.params, all_indices, c.batch_dims),
                                        in.indices, rank);
  const TensorBuffer single = my_rows(
      tensorbuf::gather_nd(in.params, all_indices,
                           {.device = Device::cpu(), .out_of_bounds = policy,
                            .batch_dims = c.batch_dims}),
      in.indices, rank);
  const ShardedTensor params(world(), c.layout, shard_of(in.params, c.layout, rank));
  const TensorBuffer got = dist::gather_nd(
      params, in.indices[static_cast<std::size_t>(rank)],
      {.out_of_bounds = policy, .batch_dims = c.batch_dims});
  const bool ok = same_bytes(got, expected) && same_bytes(got, single);
  EXPECT_TRUE(ok) << "dtype " << to_string(c.dtype) << " batch_dims " << c.batch_dims
                  << " depth " << c.depth << " seed " << c.seed << " got "
                  << got.shape().to_string() << " expected " << expected.shape().to_string();
  return all_ranks(ok);
}

TEST(DistGatherNd, EqualsSingleProcess_UnevenLayoutWithZeroRowRank) {
  for (const DataType dtype : {DataType::kFloat32, DataType::kFloat16, DataType::kInt8,
                               DataType::kFloat64, DataType::kBool}) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
      GatherCase c{.dtype = dtype,
                   .layout = uneven_layout(world_size()),
                   .params_rest = {4},
                   .index_dtype = seed % 2 == 0 ? DataType::kInt32 : DataType::kInt64,
                   .seed = seed};
      EXPECT_TRUE(matches_reference(c));
    }
  }
}

TEST(DistGatherNd, EqualsSingleProcess_DepthTwoAndThreeMiddleDims) {
  GatherCase c{.layout = uneven_layout(world_size()),
               .params_rest = {3, 2, 5},
               .depth = 2,
               .indices_middle = {2},
               .seed = 4};
  EXPECT_TRUE(matches_reference(c));
  c.depth = 3;  // params [rows, 3, 2, 5] with depth 3: slices of 5
  c.indices_middle = {2, 3};
  c.seed = 5;
  EXPECT_TRUE(matches_reference(c));
  c.depth = 4;  // every component: one element per row
  c.seed = 6;
  EXPECT_TRUE(matches_reference(c));
}

TEST(DistGatherNd, EqualsSingleProcess_BatchDims) {
  for (int b = 1; b <= 2; ++b) {
    for (unsigned seed = 1; seed <= 2; ++seed) {
      GatherCase c{.layout = RowLayout::block(2 * world_size() + 1, world_size()),
                   .params_rest = {3, 4, 2},
                   .batch_dims = b,
                   .depth = 1,
                   .indices_middle = {5},
                   .index_dtype = seed == 1 ? DataType::kInt32 : DataType::kInt64,
                   .seed = 10 + seed};
      EXPECT_TRUE(matches_reference(c));
    }
  }
  GatherCase c{.layout = uneven_layout(world_size()),
               .params_rest = {3, 4, 2},
               .batch_dims = 1,
               .depth = 2,
               .indices_middle = {2},
               .seed = 20};
  EXPECT_TRUE(matches_reference(c));
}

TEST(DistGatherNd, EqualsSingleProcess_AllRowsToOneOwnerAndEmptySlices) {
  // Every request for the last row: one owner answers everyone.
  GatherCase c{.layout = RowLayout::block(3 * world_size(), world_size()),
               .params_rest = {6},
               .seed = 30};
  GatherInputs in = generate(c, world_size());
  const std::int64_t last = c.layout.rows() - 1;
  for (TensorBuffer& idx : in.indices) {
    std::vector<std::int64_t> v(static_cast<std::size_t>(idx.flat_size()), last);
    idx = make(idx.shape(), v);
  }
  const int rank = world_rank();
  const TensorBuffer all = concat(in.indices);
  const ShardedTensor params(world(), c.layout, shard_of(in.params, c.layout, rank));
  const TensorBuffer got = dist::gather_nd(params, in.indices[static_cast<std::size_t>(rank)]);
  EXPECT_TRUE(all_ranks(same_bytes(got, my_rows(reference(in.params, all, 0), in.indices, rank))));
  // Slices of zero elements: shapes only.
  GatherCase empty{.layout = uneven_layout(world_size()), .params_rest = {0}, .seed = 31};
  EXPECT_TRUE(matches_reference(empty));
}

TEST(DistGatherNd, DropPolicyZeroFillsOnTheRankHoldingTheRow) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    GatherCase c{.layout = uneven_layout(world_size()),
                 .params_rest = {5, 3},
                 .depth = 2,
                 .bad_share = 0.3,
                 .seed = 40 + seed};
    EXPECT_TRUE(matches_reference(c, OutOfBoundsPolicy::kDrop));
  }
}

// kError: every rank throws the single-process message for the concatenated indices, which
// names the first bad row over all ranks (here the second-to-last rank's, before the last's).
TEST(DistGatherNd, ErrorNamesTheFirstBadRowOnEveryRank) {
  const int rank = world_rank();
  const int size = world_size();
  const RowLayout layout = RowLayout::block(4 * size, size);
  const TensorBuffer full = make(Shape{4 * size, 2}, std::vector<float>(8 * size, 1.0f));
  const ShardedTensor params(world(), layout, shard_of(full, layout, rank));
  std::vector<TensorBuffer> indices;
  for (int q = 0; q < size; ++q) {
    std::vector<std::int64_t> v{q, q};
    if (q == size - 2) v.push_back(4 * size + 3);
    if (q == size - 1) v.push_back(-2);
    indices.push_back(make(Shape{static_cast<std::int64_t>(v.size()), 1}, v));
  }
  const std::string single = error_of(
      [&] { tensorbuf::gather_nd(full, concat(indices), {.device = Device::cpu()}); });
  ErrorCode code = ErrorCode::kInternal;
  const std::string got =
      error_of([&] { dist::gather_nd(params, indices[static_cast<std::size_t>(rank)]); }, &code);
  EXPECT_EQ(got, single);
  EXPECT_EQ(code, ErrorCode::kInvalidArgument);
  const std::string first = size >= 2 ? std::to_string(4 * size + 3) : "-2";
  EXPECT_NE(got.find("= [" + first + "]"), std::string::npos) << got;
  EXPECT_TRUE(same_on_all_ranks(got));
}

TEST(DistGatherNd, OutOfRangeOnOneRankOnlyRaisesEverywhere) {
  const int rank = world_rank();
  const int size = world_size();
  const RowLayout layout = uneven_layout(size);
  const TensorBuffer full =
      make(Shape{layout.rows(), 3}, std::vector<std::int32_t>(3 * layout.rows(), 7));
  const ShardedTensor params(world(), layout, shard_of(full, layout, rank));
  std::vector<TensorBuffer> indices;
  for (int q = 0; q < size; ++q) {
    std::vector<std::int64_t> v{0, 1};
    if (q == size - 1) v.push_back(layout.rows());
    indices.push_back(make(Shape{static_cast<std::int64_t>(v.size()), 1}, v));
  }
  const std::string got =
      error_of([&] { dist::gather_nd(params, indices[static_cast<std::size_t>(rank)]); });
  EXPECT_EQ(got, "indices[" + std::to_string(2 * size) + "] = [" + std::to_string(layout.rows()) +
                     "] does not index into shape [" + std::to_string(layout.rows()) + ",3]");
  EXPECT_EQ(got, error_of([&] { tensorbuf::gather_nd(full, concat(indices)); }));
  EXPECT_TRUE(same_on_all_ranks(got));
}

TEST(DistGatherNd, DisagreementsRaiseTheSameErrorEverywhere) {
  const int rank = world_rank();
  const int size = world_size();
  const RowLayout layout = RowLayout::block(2 * size, size);
  const TensorBuffer full = make(Shape{2 * size, 2}, std::vector<float>(4 * size, 2.0f));
  const ShardedTensor params(world(), layout, shard_of(full, layout, rank));
  const TensorBuffer idx = make(Shape{1, 1}, std::vector<std::int64_t>{0});
  const int last = size - 1;
  ErrorCode code = ErrorCode::kInternal;
  // batch_dims differs on the last rank.
  std::string got = error_of(
      [&] { dist::gather_nd(params, idx, {.batch_dims = rank == last && size > 1 ? 1 : 0}); },
      &code);
  EXPECT_TRUE(same_on_all_ranks(got));
  if (size > 1) {
    EXPECT_EQ(got, "gather_nd: the ranks disagree on the batch_dims: rank 0 has 0, rank " +
                       std::to_string(last) + " 1");
    EXPECT_EQ(code, ErrorCode::kInvalidArgument);
  }
  // The policy differs.
  got = error_of([&] {
    dist::gather_nd(params, idx,
                    {.out_of_bounds = rank == last && size > 1 ? OutOfBoundsPolicy::kDrop
                                                               : OutOfBoundsPolicy::kError});
  });
  EXPECT_TRUE(same_on_all_ranks(got));
  if (size > 1) {
    EXPECT_EQ(got, "gather_nd: the ranks disagree on the out-of-bounds policy: rank 0 has "
                   "error, rank " + std::to_string(last) + " drop");
  }
  // Indices of another dtype on one rank: not concatenable.
  const TensorBuffer idx32 = index_buffer(Shape{1, 1}, {0}, DataType::kInt32);
  got = error_of([&] { dist::gather_nd(params, rank == last ? idx32 : idx); });
  EXPECT_TRUE(same_on_all_ranks(got));
  if (size > 1) {
    EXPECT_EQ(got, "gather_nd: rank " + std::to_string(last) +
                       "'s indices int32 [1,1] cannot be concatenated with rank 0's int64 [1,1] "
                       "(dtype and all dims but the first must agree)");
  }
  // Float indices on one rank: the single-process text, with its rank.
  const TensorBuffer idxf = index_buffer(Shape{1, 1}, {0}, DataType::kFloat32);
  got = error_of([&] { dist::gather_nd(params, rank == last ? idxf : idx); });
  EXPECT_TRUE(same_on_all_ranks(got));
  EXPECT_EQ(got, "gather_nd: indices must be int32 or int64, got float32 (on rank " +
                     std::to_string(last) + ")");
  // Rank-1 indices.
  const TensorBuffer flat = make(Shape{1}, std::vector<std::int64_t>{0});
  got = error_of([&] { dist::gather_nd(params, flat); });
  EXPECT_EQ(got,
            "gather_nd: distributed indices need rank >= 2 ([rows, ..., depth]), got shape [1] "
            "on rank 0");
  // A depth too large: the single-process text for the global shapes.
  const TensorBuffer deep = make(Shape{1, 3}, std::vector<std::int64_t>{0, 0, 0});
  got = error_of([&] { dist::gather_nd(params, deep); });
  EXPECT_EQ(got, error_of([&] {
              tensorbuf::gather_nd(full, make(Shape{size, 3}, std::vector<std::int64_t>(
                                                                   3 * size, 0)));
            }));
  EXPECT_TRUE(same_on_all_ranks(got));
  // A rank whose shard does not fit the layout any more.
  ShardedTensor broken(world(), layout, shard_of(full, layout, rank));
  if (rank == last) broken.local() = make(Shape{5, 2}, std::vector<float>(10, 0.0f));
  got = error_of([&] { dist::gather_nd(broken, idx); });
  EXPECT_TRUE(same_on_all_ranks(got));
  EXPECT_NE(got.find("does not have the 2 rows its layout gives it"), std::string::npos) << got;
}

// A rank calling another op meets the others in the agreement step.
TEST(DistGatherNd, AnotherOpOnOneRankRaisesEverywhere) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  const int rank = world_rank();
  const int size = world_size();
  const RowLayout layout = RowLayout::block(2 * size, size);
  const TensorBuffer full = make(Shape{2 * size, 2}, std::vector<float>(4 * size, 2.0f));
  ShardedTensor params(world(), layout, shard_of(full, layout, rank));
  const TensorBuffer idx = make(Shape{1, 1}, std::vector<std::int64_t>{0});
  const TensorBuffer upd = make(Shape{1, 2}, std::vector<float>{1, 1});
  const std::string got = error_of([&] {
    if (rank == 1) {
      dist::tensor_scatter_nd_add_in_place(params, idx, upd);
    } else {
      dist::gather_nd(params, idx);
    }
  });
  EXPECT_EQ(got, "gather_nd: the ranks disagree on the op: rank 0 has gather_nd, rank 1 "
                 "tensor_scatter_nd_add");
  EXPECT_TRUE(same_on_all_ranks(got));
  EXPECT_TRUE(all_ranks(same_bytes(params.local(), shard_of(full, layout, rank))));
}

// The negative control: requests and answers placed in reverse source order must be caught.
// Every rank asks 12 rows of every owner's, in an order of its own.
TEST(DistGatherNd, ReversedSourceOrderIsCaught) {
  if (world_size() < 3) GTEST_SKIP() << "needs three ranks (two sources per owner)";
  const int rank = world_rank();
  const int size = world_size();
  GatherCase c{.layout = RowLayout::block(6 * size, size), .params_rest = {4}, .seed = 50};
  GatherInputs in = generate(c, size);
  for (int q = 0; q < size; ++q) {
    std::vector<std::int64_t> v(12);
    for (std::int64_t i = 0; i < 12; ++i) v[static_cast<std::size_t>(i)] = (5 * i + 7 * q) % (6 * size);
    in.indices[static_cast<std::size_t>(q)] = make(Shape{12, 1}, v);
  }
  const TensorBuffer expected =
      my_rows(reference(in.params, concat(in.indices), 0), in.indices, rank);
  const ShardedTensor params(world(), c.layout, shard_of(in.params, c.layout, rank));
  const TensorBuffer& mine = in.indices[static_cast<std::size_t>(rank)];
  EXPECT_TRUE(all_ranks(same_bytes(dist::gather_nd(params, mine), expected)));
  detail::set_reverse_sources_for_testing(true);
  const TensorBuffer got = dist::gather_nd(params, mine);
  detail::set_reverse_sources_for_testing(false);
  EXPECT_FALSE(all_ranks(same_bytes(got, expected)));
}

// The scratch kept with the Comm grows and shrinks between calls: each call still exact.
TEST(DistGatherNd, RepeatedCallsReuseTheScratchAndAgree) {
  GatherCase c{.layout = uneven_layout(world_size()), .params_rest = {8}, .seed = 60};
  for (int i = 0; i < 3; ++i) {
    c.seed = 60 + static_cast<unsigned>(i);
    c.params_rest = {8 >> i};
    EXPECT_TRUE(matches_reference(c));
  }
}

}  // namespace
}  // namespace tensorbuf::dist::testing
