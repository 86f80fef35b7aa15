// D3: a distributed scatter equals the single-process CPU op on the gathered tensor, with every
// rank's indices and updates concatenated in rank order, bit for bit (each shard compared byte
// for byte with the reference's rows).
#include "mpi/collective.hpp"
#include "mpi/exchange.hpp"
#include "mpi/scatter_cases.hpp"
#include "support/devices.hpp"
#include "support/test_device_memory.hpp"

namespace tensorbuf::dist::testing {
namespace {

// Runs `fns` in place and out of place on `c` and compares every shard with the reference: the
// single-process op with the same options (on the CPU unless they name a device).
// Returns true on every rank iff every shard matched on every rank.
bool matches_reference(const ScatterFns& fns, const ScatterCase& c,
                       const ScatterOptions& options = {}) {
  const ScatterInputs in = generate(c);
  ScatterOptions single = options;
  if (!single.device) single.device = Device::cpu();
  const TensorBuffer reference = fns.single(in.full, concat(in.indices), concat(in.updates), single);
  const int rank = world_rank();
  ShardedTensor tensor(world(), c.layout, shard_of(in.full, c.layout, rank));
  const ShardedTensor out = fns.out_of_place(tensor, in.indices[rank], in.updates[rank], options);
  const bool input_kept = same_bytes(tensor.local(), shard_of(in.full, c.layout, rank));
  fns.in_place(tensor, in.indices[rank], in.updates[rank], options);
  const TensorBuffer expected = shard_of(reference, c.layout, rank);
  const bool ok = same_bytes(out.local(), expected) && same_bytes(tensor.local(), expected);
  EXPECT_TRUE(ok) << fns.name << " dtype " << to_string(c.dtype) << " seed " << c.seed;
  EXPECT_TRUE(input_kept) << fns.name << ": the out-of-place op changed its input";
  return all_ranks(ok && input_kept);
}

TEST(DistScatter, D3_EqualsSingleProcess_UnevenLayoutWithZeroRowRank) {
  for (const ScatterFns& fns : scatter_fns()) {
    for (const DataType dtype :
         {DataType::kFloat32, DataType::kFloat16, DataType::kInt32, DataType::kFloat64}) {
      for (unsigned seed = 1; seed <= 4; ++seed) {
        ScatterCase c{.dtype = dtype, .layout = uneven_layout(world_size()), .seed = seed};
        EXPECT_TRUE(matches_reference(fns, c));
      }
    }
  }
}

TEST(DistScatter, D3_EqualsSingleProcess_AllRowsToOneOwner) {
  for (const ScatterFns& fns : scatter_fns()) {
    ScatterCase c{.layout = RowLayout::block(4 * world_size() + 1, world_size()),
                  .one_owner = true,
                  .seed = 7};
    EXPECT_TRUE(matches_reference(fns, c));
  }
}

TEST(DistScatter, D3_EqualsSingleProcess_DepthTwoIntoSlices) {
  for (const ScatterFns& fns : scatter_fns()) {
    ScatterCase c{
        .layout = uneven_layout(world_size()), .trailing = {3, 2}, .depth = 2, .seed = 12};
    EXPECT_TRUE(matches_reference(fns, c));
  }
}

TEST(DistScatter, D3_NaNPropagatesInMinAndMax) {
  for (const ScatterFns& fns : {scatter_fns()[3], scatter_fns()[4]}) {
    for (const DataType dtype : {DataType::kFloat32, DataType::kFloat16}) {
      ScatterCase c{.dtype = dtype, .layout = uneven_layout(world_size()), .nans = true, .seed = 5};
      EXPECT_TRUE(matches_reference(fns, c));
    }
  }
}

TEST(DistScatter, D3_BoolUpdateLastRowWins) {
  ScatterCase c{.dtype = DataType::kBool, .layout = uneven_layout(world_size()), .seed = 3};
  EXPECT_TRUE(matches_reference(scatter_fns()[2], c));
}

TEST(DistScatter, D3_DropPolicyDropsOnTheRankHoldingTheRow) {
  // Rank q's last row points past the tensor; kDrop skips it everywhere.
  ScatterCase c{.layout = uneven_layout(world_size()), .seed = 9};
  const ScatterInputs in = generate(c);
  const int rank = world_rank();
  std::vector<TensorBuffer> indices;
  for (const TensorBuffer& i : in.indices) {
    std::vector<std::int64_t> v;
    const TensorBuffer i64 = TensorBuffer::create_from(i, DataType::kInt64);
    v.assign(i64.host<std::int64_t>(), i64.host<std::int64_t>() + i64.flat_size());
    v.push_back(c.layout.rows() + 2);
    indices.push_back(make<std::int64_t>(Shape{static_cast<std::int64_t>(v.size()), 1}, v));
  }
  std::vector<TensorBuffer> updates;
  for (const TensorBuffer& u : in.updates) {
    std::vector<float> v = u.get_float_array();
    for (int k = 0; k < 4; ++k) v.push_back(1.0f);
    updates.push_back(make<float>(Shape{static_cast<std::int64_t>(v.size() / 4), 4}, v));
  }
  const ScatterOptions drop{.out_of_bounds = OutOfBoundsPolicy::kDrop};
  const TensorBuffer reference = tensorbuf::tensor_scatter_nd_add(
      in.full, concat(indices), concat(updates),
      {.device = Device::cpu(), .out_of_bounds = OutOfBoundsPolicy::kDrop});
  ShardedTensor tensor(world(), c.layout, shard_of(in.full, c.layout, rank));
  dist::tensor_scatter_nd_add_in_place(tensor, indices[rank], updates[rank], drop);
  EXPECT_TRUE(all_ranks(same_bytes(tensor.local(), shard_of(reference, c.layout, rank))));
}

// The negative control: the same comparison with the rows applied in the wrong order (sources
// in reverse rank order) must fail, so the tests above can tell the orders apart.
TEST(DistScatter, D3_NegativeControl_WrongApplyOrderIsCaught) {
  if (world_size() < 2) GTEST_SKIP() << "one rank has a single source: no other order";
  detail::set_reverse_sources_for_testing(true);
  bool any_matched = false;
  for (const ScatterFns& fns : {scatter_fns()[1], scatter_fns()[2]}) {  // add (float), update
    ScatterCase c{
        .layout = RowLayout::block(world_size(), world_size()), .one_owner = true, .seed = 2};
    // Every rank sends rows to the last rank's single row: order decides the bits.
    const ScatterInputs in = generate(c);
    const TensorBuffer reference =
        fns.single(in.full, concat(in.indices), concat(in.updates), {.device = Device::cpu()});
    const int rank = world_rank();
    ShardedTensor tensor(world(), c.layout, shard_of(in.full, c.layout, rank));
    fns.in_place(tensor, in.indices[rank], in.updates[rank], {});
    any_matched =
        any_matched || all_ranks(same_bytes(tensor.local(), shard_of(reference, c.layout, rank)));
  }
  detail::set_reverse_sources_for_testing(false);
  EXPECT_FALSE(any_matched);
}

TEST(DistScatter, D4_RoundsPastTheCountLimitGiveTheSameBits) {
  // A round limit of 1 row forces several rounds of messages where INT_MAX would need one call.
  detail::set_round_limit_for_testing(1);
  for (const ScatterFns& fns : scatter_fns()) {
    ScatterCase c{.layout = uneven_layout(world_size()), .seed = 11};
    EXPECT_TRUE(matches_reference(fns, c));
  }
  const int calls = detail::last_exchange_calls_for_testing();
  detail::set_round_limit_for_testing(0);
  // One rank exchanges nothing: the single-process op runs on the caller's buffers.
  if (world_size() > 1) {
    EXPECT_GT(calls, 1);
  }
}

TEST(DistScatter, D3_OwnRowsGoStraightToTheReceiveBuffer) {
  // Every rank adds only into its own rows (duplicates included): nothing enters the send
  // buffers, the rows are bucketed straight into the receive buffer (on one rank not even
  // that: the single-process op runs on the caller's buffers), and the bits are the reference's.
  const int size = world_size(), rank = world_rank();
  const RowLayout layout = RowLayout::block(4 * size, size);
  std::mt19937_64 rng(21);
  const TensorBuffer full = random_values(rng, Shape{4 * size, 3}, DataType::kFloat32, false);
  std::vector<TensorBuffer> indices, updates;
  for (int q = 0; q < size; ++q) {
    std::vector<std::int64_t> own;
    for (std::int64_t k = 0; k < 6; ++k) own.push_back(4 * q + (k * 3) % 4);
    indices.push_back(make<std::int64_t>(Shape{6, 1}, own));
    updates.push_back(random_values(rng, Shape{6, 3}, DataType::kFloat32, false));
  }
  const TensorBuffer reference = tensorbuf::tensor_scatter_nd_add(
      full, concat(indices), concat(updates), {.device = Device::cpu()});
  const Comm comm = world();  // its own buffers, unused before
  ShardedTensor tensor(comm, layout, shard_of(full, layout, rank));
  dist::tensor_scatter_nd_add_in_place(tensor, indices[rank], updates[rank]);
  EXPECT_TRUE(all_ranks(same_bytes(tensor.local(), shard_of(reference, layout, rank))));
  const detail::Scratch& scratch = detail::CommAccess::scratch(comm);
  EXPECT_EQ(scratch.send_index.size(), 0u);
  EXPECT_EQ(scratch.send_slices.size(), 0u);
  EXPECT_EQ(scratch.recv_slices.size(), size == 1 ? 0u : 6u * 3 * 4);
}

TEST(DistScatter, D3_LargeBucketsStreamedGiveTheSameBits) {
  // 64K rows of 64 float32 per rank (16 MiB: the bucketing streams its stores past the caches)
  // into 1000 rows: many duplicates within and across ranks, in order-sensitive sums.
  const int size = world_size(), rank = world_rank();
  constexpr std::int64_t kRows = 1 << 16, kWidth = 64, kTable = 1000;
  const RowLayout layout = RowLayout::block(kTable, size);
  std::vector<float> table(static_cast<std::size_t>(kTable * kWidth));
  for (std::size_t i = 0; i < table.size(); ++i) table[i] = static_cast<float>(i % 13) * 0.25f;
  const TensorBuffer full = make<float>(Shape{kTable, kWidth}, table);
  std::vector<TensorBuffer> indices, updates;
  for (int q = 0; q < size; ++q) {
    std::vector<std::int64_t> idx(static_cast<std::size_t>(kRows));
    std::vector<float> upd(static_cast<std::size_t>(kRows * kWidth));
    for (std::int64_t r = 0; r < kRows; ++r)
      idx[r] = (r * 7919 + q * 104729) % kTable;  // every rank's rows reach every owner
    for (std::size_t i = 0; i < upd.size(); ++i) {
      const std::uint64_t h = (i + static_cast<std::uint64_t>(q) * 977) * 0x9E3779B97F4A7C15ull;
      upd[i] = (h >> 61) == 0 ? 1e8f : static_cast<float>(h >> 54) * 1e-3f;
    }
    indices.push_back(make<std::int64_t>(Shape{kRows, 1}, idx));
    updates.push_back(make<float>(Shape{kRows, kWidth}, upd));
  }
  const TensorBuffer reference = tensorbuf::tensor_scatter_nd_add(
      full, concat(indices), concat(updates), {.device = Device::cpu()});
  ShardedTensor tensor(world(), layout, shard_of(full, layout, rank));
  dist::tensor_scatter_nd_add_in_place(tensor, indices[rank], updates[rank]);
  EXPECT_TRUE(all_ranks(same_bytes(tensor.local(), shard_of(reference, layout, rank))));
}

TEST(DistScatter, D3_CudaShardsGiveTheSingleProcessCudaBits) {
  // A CUDA run routes and buckets on the device (route_rows), then stages through pinned host
  // memory, or, with TENSORBUF_MPI_CUDA_AWARE=1 where MPI is CUDA-aware, hands MPI device
  // pointers: either way the single-process CUDA op's bits (deterministic, so that duplicate
  // float sums have one order). The ranks share device 0. Needs a GPU: skipped without one.
  TENSORBUF_SKIP_WITHOUT_CUDA(Device::cuda(0));
  for (const char* aware : {"0", "1"}) {
    const ScopedCudaAwareVariable variable(aware);
    for (const ScatterFns& fns : scatter_fns()) {
      for (const DataType dtype : {DataType::kFloat32, DataType::kFloat16, DataType::kInt32}) {
        for (unsigned seed = 3; seed <= 4; ++seed) {  // int32 and int64 indices
          ScatterCase c{.dtype = dtype, .layout = uneven_layout(world_size()), .seed = seed};
          EXPECT_TRUE(matches_reference(fns, c, {.device = Device::cuda(0), .deterministic = true}))
              << "TENSORBUF_MPI_CUDA_AWARE=" << aware;
        }
      }
    }
  }
}

TEST(DistScatter, D3_HostStagingOfDeviceResidentOperands) {
  // Host memory posing as device memory: indices and updates valid only "on the device" are
  // staged through their host copies once each, and the result is unchanged.
  tensorbuf::testing::ScopedTestDeviceMemory memory;  // outlives every buffer of the test
  ScatterCase c{.layout = uneven_layout(world_size()), .seed = 6};
  ScatterInputs in = generate(c);
  const TensorBuffer reference = tensorbuf::tensor_scatter_nd_add(
      in.full, concat(in.indices), concat(in.updates), {.device = Device::cpu()});
  const int rank = world_rank();
  ShardedTensor tensor(world(), c.layout, shard_of(in.full, c.layout, rank));
  in.indices[rank].mutable_device_bytes();  // the host copies are now stale
  in.updates[rank].mutable_device_bytes();
  EXPECT_FALSE(in.updates[rank].is_valid_on(Device::cpu()));
  const std::int64_t before = memory->downloads();
  dist::tensor_scatter_nd_add_in_place(tensor, in.indices[rank], in.updates[rank],
                                       {.device = Device::cpu()});
  EXPECT_EQ(memory->downloads() - before, 2);
  EXPECT_TRUE(all_ranks(same_bytes(tensor.local(), shard_of(reference, c.layout, rank))));
}

}  // namespace
}  // namespace tensorbuf::dist::testing
