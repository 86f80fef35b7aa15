// spec/processing.md 4: a Processor on a row-sharded tensor runs on each shard; the result keeps
// the layout and its rank-order concatenation equals the single-process run on the gathered
// tensor, bit for bit, which the plain float32 loop written here checks too (the chain's
// values are exact in float32). Ranks that disagree on the steps or the device, or pass shards
// that do not fit, all get the same error.
#include "mpi/collective.hpp"
#include "mpi/helpers.hpp"

namespace tensorbuf::dist::testing {
namespace {

// uint8 pixels of `shape` from rng.
TensorBuffer random_pixels(const Shape& shape, std::mt19937_64& rng) {
  TensorBuffer out = TensorBuffer::create_fixed_size(shape, DataType::kUInt8);
  auto* p = out.size_bytes() != 0 ? static_cast<std::uint8_t*>(out.overwrite_host_bytes())
                                  : nullptr;
  for (std::size_t i = 0; i < out.size_bytes(); ++i) p[i] = static_cast<std::uint8_t>(rng());
  return out;
}

// (x - mean[c]) / stddev[c] per channel of the last axis, in float32, written out here.
TensorBuffer normalized(const TensorBuffer& pixels, const std::vector<float>& means,
                        const std::vector<float>& stddevs) {
  TensorBuffer out = TensorBuffer::create_fixed_size(pixels.shape(), DataType::kFloat32);
  if (out.size_bytes() == 0) return out;
  const auto* x = pixels.host<std::uint8_t>();
  auto* y = out.overwrite_host<float>();
  const std::size_t channels = means.size();
  for (std::int64_t i = 0; i < pixels.flat_size(); ++i) {
    const std::size_t c = static_cast<std::size_t>(i) % channels;
    y[i] = (static_cast<float>(x[i]) - means[c]) / stddevs[c];
  }
  return out;
}

TEST(DistProcessor, EachShardRunsTheChainAsOneProcess) {
  const int rank = world_rank();
  const RowLayout layout = uneven_layout(world_size());
  std::mt19937_64 rng(17);
  const std::vector<float> means = {0.5f, 2.0f, 128.0f};
  const std::vector<float> stddevs = {0.5f, 4.0f, 64.0f};
  const TensorBuffer full = random_pixels(Shape{layout.rows(), 4, 3}, rng);
  const ShardedTensor tensor(world(), layout, shard_of(full, layout, rank));
  const Processor to_float(std::vector<ProcessStep>{normalize_op(means, stddevs)});
  const TensorBuffer expected = normalized(full, means, stddevs);
  ASSERT_TRUE(same_bytes(to_float.run(full), expected));
  const ShardedTensor got = dist::process(to_float, tensor);
  EXPECT_TRUE(all_ranks(got.layout() == layout));
  EXPECT_TRUE(all_ranks(same_bytes(got.local(), shard_of(expected, layout, rank))));
  // On to float16: the single-process chain's bytes, shard by shard.
  const Processor to_half(
      std::vector<ProcessStep>{normalize_op(means, stddevs), cast_op(DataType::kFloat16)});
  const TensorBuffer half = to_half.run(full);
  EXPECT_TRUE(all_ranks(
      same_bytes(dist::process(to_half, tensor).local(), shard_of(half, layout, rank))));
}

TEST(DistProcessor, DisagreementsAndChainErrorsAreTheSameOnEveryRank) {
  const int rank = world_rank();
  const int size = world_size();
  const int last = size - 1;
  const RowLayout layout = uneven_layout(size);
  std::mt19937_64 rng(23);
  const TensorBuffer full = random_pixels(Shape{layout.rows(), 2}, rng);
  const ShardedTensor tensor(world(), layout, shard_of(full, layout, rank));
  // Three channels for a last axis of 2: Processor::run's own message, on every rank.
  const Processor three(std::vector<ProcessStep>{normalize_op({1, 2, 3}, {1, 1, 1})});
  ErrorCode code = ErrorCode::kInternal;
  std::string got = error_of([&] { dist::process(three, tensor); }, &code);
  EXPECT_EQ(got, error_of([&] { three.run(full); }));
  EXPECT_EQ(code, ErrorCode::kInvalidArgument);
  EXPECT_TRUE(same_on_all_ranks(got));
  if (size == 1) return;
  // The last rank normalizes with another mean.
  const Processor one(std::vector<ProcessStep>{normalize_op(1.0f, 2.0f)});
  const Processor other(std::vector<ProcessStep>{normalize_op(1.5f, 2.0f)});
  got = error_of([&] { dist::process(rank == last ? other : one, tensor); }, &code);
  EXPECT_EQ(code, ErrorCode::kInvalidArgument);
  EXPECT_TRUE(same_on_all_ranks(got));
  EXPECT_EQ(got.rfind("Processor: the ranks disagree on the steps: rank 0 has fingerprint ", 0), 0u)
      << got;
  // The same steps in another order are another chain.
  const Processor cast_first(
      std::vector<ProcessStep>{cast_op(DataType::kFloat32), normalize_op(1.0f, 2.0f)});
  const Processor cast_last(
      std::vector<ProcessStep>{normalize_op(1.0f, 2.0f), cast_op(DataType::kFloat32)});
  got = error_of([&] { dist::process(rank == last ? cast_last : cast_first, tensor); });
  EXPECT_NE(got, "(no error)");
  EXPECT_TRUE(same_on_all_ranks(got));
  // Equal chains built apart agree.
  const Processor again(std::vector<ProcessStep>{normalize_op(1.0f, 2.0f)});
  EXPECT_EQ(error_of([&] { dist::process(rank == last ? again : one, tensor); }), "(no error)");
}

}  // namespace
}  // namespace tensorbuf::dist::testing
