// spec/indexing.md 6: a distributed boolean_mask is a ShardedTensor whose rank-order
// concatenation equals the single-process op on the gathered tensor and mask, bit for bit;
// compared byte for byte with a plain-loop reference written here and the single-process op.
#include "mpi/collective.hpp"
#include "mpi/helpers.hpp"

namespace tensorbuf::dist::testing {
namespace {

// Random bytes (any bit pattern; bool 0 / 1) of `shape`.
TensorBuffer random_tensor(const Shape& shape, DataType dtype, std::mt19937_64& rng) {
  TensorBuffer out = TensorBuffer::create_fixed_size(shape, dtype);
  if (out.size_bytes() == 0) return out;
  auto* bytes = static_cast<std::uint8_t*>(out.overwrite_host_bytes());
  for (std::size_t i = 0; i < out.size_bytes(); ++i) {
    bytes[i] = dtype == DataType::kBool ? static_cast<std::uint8_t>(rng() % 3 == 0)
                                        : static_cast<std::uint8_t>(rng());
  }
  return out;
}

// One-byte `values` as a buffer of `dtype` (bool, int8, uint8).
TensorBuffer bytes_as(const Shape& shape, const std::vector<std::uint8_t>& values, DataType dtype) {
  TensorBuffer out = TensorBuffer::create_fixed_size(shape, dtype);
  if (!values.empty()) std::memcpy(out.overwrite_host_bytes(), values.data(), values.size());
  return out;
}

// The plain-loop NumPy tensor[(slice(None),)*axis + (mask,)]: for each outer block, the inner
// slices whose mask entry is true, in order.
TensorBuffer reference(const TensorBuffer& tensor, const TensorBuffer& mask, int axis) {
  const std::vector<std::int64_t> t = tensor.shape().dims();
  const int k = mask.shape().rank();
  std::int64_t outer = 1, masked = 1, inner = 1, n = 0;
  for (int i = 0; i < axis; ++i) outer *= t[static_cast<std::size_t>(i)];
  for (int i = axis; i < axis + k; ++i) masked *= t[static_cast<std::size_t>(i)];
  for (std::size_t i = static_cast<std::size_t>(axis + k); i < t.size(); ++i) inner *= t[i];
  const auto* m = static_cast<const std::uint8_t*>(mask.flat_size() ? mask.host_bytes() : nullptr);
  for (std::int64_t j = 0; j < masked; ++j) n += m[j] != 0 ? 1 : 0;
  std::vector<std::int64_t> dims(t.begin(), t.begin() + axis);
  dims.push_back(n);
  dims.insert(dims.end(), t.begin() + axis + k, t.end());
  TensorBuffer out = TensorBuffer::create_fixed_size(Shape(dims), tensor.data_type());
  if (out.size_bytes() == 0) return out;
  const std::size_t slice = static_cast<std::size_t>(inner) * tensor.type_size();
  const auto* src = static_cast<const std::uint8_t*>(tensor.host_bytes());
  auto* dst = static_cast<std::uint8_t*>(out.overwrite_host_bytes());
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t j = 0; j < masked; ++j) {
      if (m[j] == 0) continue;
      std::memcpy(dst, src + static_cast<std::size_t>(o * masked + j) * slice, slice);
      dst += slice;
    }
  }
  return out;
}

// This rank's expected rows: rows [begin, begin + count) of the global result, where `begin`
// counts the rows the ranks before it select.
bool shard_matches(const ShardedTensor& got, const TensorBuffer& global) {
  const RowLayout& layout = got.layout();
  const int rank = world_rank();
  const bool ok = layout.rows() == global.shape()[0] &&
                  same_bytes(got.local(), shard_of(global, layout, rank));
  EXPECT_TRUE(ok) << "rank " << rank << " got " << got.local().shape().to_string() << " of "
                  << global.shape().to_string();
  return all_ranks(ok);
}

TEST(DistBooleanMask, AxisZeroEqualsSingleProcess) {
  const int rank = world_rank();
  const RowLayout layout = uneven_layout(world_size());
  for (const DataType dtype :
       {DataType::kFloat32, DataType::kFloat16, DataType::kInt8, DataType::kFloat64,
        DataType::kBool}) {
    for (const std::vector<std::int64_t>& rest :
         {std::vector<std::int64_t>{}, std::vector<std::int64_t>{4},
          std::vector<std::int64_t>{3, 2}}) {
      for (int k = 1; k <= static_cast<int>(rest.size()) + 1; ++k) {
        std::mt19937_64 rng(static_cast<unsigned>(dtype) * 31 + rest.size() * 7 + k);
        std::vector<std::int64_t> dims = rest;
        dims.insert(dims.begin(), layout.rows());
        const TensorBuffer full = random_tensor(Shape(dims), dtype, rng);
        const TensorBuffer mask_full = random_tensor(
            Shape(std::vector<std::int64_t>(dims.begin(), dims.begin() + k)), DataType::kBool, rng);
        const TensorBuffer expected = reference(full, mask_full, 0);
        ASSERT_TRUE(same_bytes(expected, tensorbuf::boolean_mask(full, mask_full)));
        const ShardedTensor tensor(world(), layout, shard_of(full, layout, rank));
        const ShardedTensor mask(world(), layout, shard_of(mask_full, layout, rank));
        const ShardedTensor got = dist::boolean_mask(tensor, mask);
        EXPECT_TRUE(shard_matches(got, expected))
            << to_string(dtype) << " rest " << rest.size() << " k " << k;
        // A negative axis naming dim 0 is the same call.
        const int negative = -static_cast<int>(dims.size());
        EXPECT_TRUE(shard_matches(dist::boolean_mask(tensor, mask, {.axis = negative}), expected));
      }
    }
  }
}

TEST(DistBooleanMask, AllFalseAndAllTrue) {
  const int rank = world_rank();
  const RowLayout layout = uneven_layout(world_size());
  std::mt19937_64 rng(5);
  const TensorBuffer full = random_tensor(Shape{layout.rows(), 3}, DataType::kInt32, rng);
  const ShardedTensor tensor(world(), layout, shard_of(full, layout, rank));
  for (const bool value : {false, true}) {
    const TensorBuffer mask_full =
        bytes_as(Shape{layout.rows()}, std::vector<std::uint8_t>(layout.rows(), value ? 1 : 0),
                 DataType::kBool);
    const ShardedTensor mask(world(), layout, shard_of(mask_full, layout, rank));
    EXPECT_TRUE(shard_matches(dist::boolean_mask(tensor, mask), reference(full, mask_full, 0)));
  }
}

TEST(DistBooleanMask, ReplicatedMaskAlongInnerAxesKeepsTheLayout) {
  const int rank = world_rank();
  const RowLayout layout = uneven_layout(world_size());
  std::mt19937_64 rng(9);
  const TensorBuffer full = random_tensor(Shape{layout.rows(), 4, 3, 2}, DataType::kFloat32, rng);
  const ShardedTensor tensor(world(), layout, shard_of(full, layout, rank));
  struct Case {
    int axis;
    Shape mask_shape;
  };
  for (const Case& c : {Case{1, Shape{4}}, Case{2, Shape{3}}, Case{1, Shape{4, 3}},
                        Case{-1, Shape{2}}, Case{3, Shape{2}}}) {
    const TensorBuffer mask = random_tensor(c.mask_shape, DataType::kBool, rng);
    const int axis = c.axis < 0 ? c.axis + 4 : c.axis;
    const TensorBuffer expected = reference(full, mask, axis);
    ASSERT_TRUE(same_bytes(expected, tensorbuf::boolean_mask(full, mask, {.axis = c.axis})));
    const ShardedTensor got = dist::boolean_mask(tensor, mask, {.axis = c.axis});
    EXPECT_TRUE(all_ranks(got.layout() == layout));
    EXPECT_TRUE(shard_matches(got, expected)) << "axis " << c.axis;
  }
}

TEST(DistBooleanMask, ErrorsAreTheSingleProcessOnesOnEveryRank) {
  const int rank = world_rank();
  const int size = world_size();
  const int last = size - 1;
  const RowLayout layout = uneven_layout(size);
  std::mt19937_64 rng(11);
  const TensorBuffer full = random_tensor(Shape{layout.rows(), 3}, DataType::kFloat32, rng);
  const TensorBuffer mask_full = random_tensor(Shape{layout.rows()}, DataType::kBool, rng);
  const ShardedTensor tensor(world(), layout, shard_of(full, layout, rank));
  const ShardedTensor mask(world(), layout, shard_of(mask_full, layout, rank));
  ErrorCode code = ErrorCode::kInternal;
  // A mask of another dtype (every rank): the single-process text for the global shapes.
  const TensorBuffer int_full = bytes_as(
      mask_full.shape(),
      std::vector<std::uint8_t>(mask_full.host<std::uint8_t>(),
                                mask_full.host<std::uint8_t>() + mask_full.flat_size()),
      DataType::kInt8);
  const ShardedTensor int_mask(world(), layout, shard_of(int_full, layout, rank));
  std::string got = error_of([&] { dist::boolean_mask(tensor, int_mask); }, &code);
  EXPECT_EQ(got, error_of([&] { tensorbuf::boolean_mask(full, int_full); }));
  EXPECT_EQ(code, ErrorCode::kInvalidArgument);
  EXPECT_TRUE(same_on_all_ranks(got));
  // A mask of the wrong trailing shape.
  const TensorBuffer wide_full = random_tensor(Shape{layout.rows(), 2}, DataType::kBool, rng);
  const ShardedTensor wide(world(), layout, shard_of(wide_full, layout, rank));
  got = error_of([&] { dist::boolean_mask(tensor, wide); });
  EXPECT_EQ(got, error_of([&] { tensorbuf::boolean_mask(full, wide_full); }));
  EXPECT_TRUE(same_on_all_ranks(got));
  // The axis differs on the last rank.
  got = error_of(
      [&] { dist::boolean_mask(tensor, mask, {.axis = rank == last && size > 1 ? -2 : 0}); });
  EXPECT_TRUE(same_on_all_ranks(got));
  if (size > 1) {
    EXPECT_EQ(got, "boolean_mask: the ranks disagree on the axis: rank 0 has 0, rank " +
                       std::to_string(last) + " -2");
  }
  // A sharded mask along axis 1; a replicated one along axis 0.
  got = error_of([&] { dist::boolean_mask(tensor, mask, {.axis = 1}); });
  EXPECT_TRUE(same_on_all_ranks(got));
  EXPECT_EQ(got, error_of([&] { tensorbuf::boolean_mask(full, mask_full, {.axis = 1}); }));
  const TensorBuffer row_mask = random_tensor(Shape{3}, DataType::kBool, rng);
  got = error_of([&] { dist::boolean_mask(tensor, row_mask, {.axis = 0}); });
  EXPECT_TRUE(same_on_all_ranks(got));
  EXPECT_EQ(got, error_of([&] { tensorbuf::boolean_mask(full, row_mask, {.axis = 0}); }));
  got = error_of([&] { dist::boolean_mask(tensor, row_mask, {.axis = 1}); });
  EXPECT_EQ(got, "(no error)");
  const TensorBuffer first_row_mask = random_tensor(Shape{layout.rows()}, DataType::kBool, rng);
  got = error_of([&] { dist::boolean_mask(tensor, first_row_mask, {.axis = 0}); });
  EXPECT_EQ(got, "boolean_mask: a replicated mask goes along axis >= 1, got axis 0 (shard the "
                 "mask for axis 0)");
  EXPECT_TRUE(same_on_all_ranks(got));
  // A replicated mask that differs in its count on one rank.
  if (size > 1) {
    const TensorBuffer other = bytes_as(Shape{3}, {1, 1, 1}, DataType::kBool);
    const TensorBuffer one = bytes_as(Shape{3}, {1, 0, 0}, DataType::kBool);
    got = error_of([&] { dist::boolean_mask(tensor, rank == last ? other : one, {.axis = 1}); });
    EXPECT_EQ(got,
              "boolean_mask: the ranks disagree on the replicated mask's true count: rank 0 has "
              "1, rank " + std::to_string(last) + " 3");
  }
  // Another op on one rank meets the others in the agreement.
  if (size > 1) {
    ShardedTensor target(tensor.comm(), layout, shard_of(full, layout, rank));  // one Comm
    const TensorBuffer updates = make(Shape{3}, std::vector<float>{1, 2, 3});
    got = error_of([&] {
      if (rank == 1) {
        dist::boolean_mask_update_in_place(target, mask, updates);
      } else {
        dist::boolean_mask(tensor, mask);
      }
    });
    EXPECT_EQ(got, "boolean_mask: the ranks disagree on the op: rank 0 has boolean_mask with a "
                   "sharded mask, rank 1 boolean_mask_update with a sharded mask");
    EXPECT_TRUE(same_on_all_ranks(got));
    EXPECT_TRUE(all_ranks(same_bytes(target.local(), shard_of(full, layout, rank))));
  }
}

}  // namespace
}  // namespace tensorbuf::dist::testing
