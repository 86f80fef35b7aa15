// D3: the agreement step every distributed op starts with. Ranks that call different ops, or
// the same op with different options or operand dtypes, all throw the same error class and
// message (naming rank 0's choice and the first rank that differs), before any data moves.
#include "mpi/scatter_cases.hpp"

namespace tensorbuf::dist::testing {
namespace {

// The error class and message `f` throws; checks they are the same on every rank.
template <class F>
std::string collective_error(F&& f) {
  ErrorCode code = ErrorCode::kInternal;
  const std::string text = error_of(std::forward<F>(f), &code);
  const std::string both = std::string(to_string(code)) + ": " + text;
  EXPECT_TRUE(same_on_all_ranks(both)) << both;
  return both;
}

// bool [4]: true, false, true, true.
TensorBuffer bool_mask4() {
  TensorBuffer mask =
      TensorBuffer::create_from(make<std::uint8_t>({4}, {1, 0, 1, 1}), DataType::kBool);
  return mask;
}

class DistAgreement : public ::testing::Test {
 protected:
  void SetUp() override {
    if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
    c_ = ScatterCase{.layout = uneven_layout(world_size()), .seed = 7};
    in_ = generate(c_);
  }
  ShardedTensor sharded() {
    return ShardedTensor(comm_, c_.layout, shard_of(in_.full, c_.layout, rank_));
  }
  bool unchanged(const ShardedTensor& t) {
    return all_ranks(same_bytes(t.local(), shard_of(in_.full, c_.layout, rank_)));
  }
  // A string shard of the same layout: [rows, 2].
  ShardedStrings strings() {
    const std::int64_t rows = c_.layout.rows_of(rank_);
    return ShardedStrings(
        comm_, c_.layout,
        StringTensor::from_strings(
            std::vector<std::string>(static_cast<std::size_t>(rows * 2), "abc"), {rows, 2}));
  }
  TensorBuffer positions(DataType dtype) {
    return TensorBuffer::create_from(make<std::int32_t>({2}, {0, 1}), dtype);
  }

  Comm comm_ = world();
  ScatterCase c_;
  ScatterInputs in_;
  int rank_ = world_rank();
};

TEST_F(DistAgreement, D3_RanksCallingDifferentScatterOpsRaiseOnEveryRank) {
  ShardedTensor tensor = sharded();
  const auto fn =
      rank_ == 1 ? &dist::tensor_scatter_nd_sub_in_place : &dist::tensor_scatter_nd_add_in_place;
  EXPECT_EQ(collective_error([&] { fn(tensor, in_.indices[rank_], in_.updates[rank_], {}); }),
            "InvalidArgument: tensor_scatter_nd_add: the ranks disagree on the op: rank 0 has "
            "tensor_scatter_nd_add, rank 1 tensor_scatter_nd_sub");
  EXPECT_TRUE(unchanged(tensor));
  // Out of place too (rank 0 update, the others max).
  const auto out_of_place =
      rank_ == 0 ? &dist::tensor_scatter_nd_update : &dist::tensor_scatter_nd_max;
  EXPECT_EQ(
      collective_error([&] { out_of_place(tensor, in_.indices[rank_], in_.updates[rank_], {}); }),
      "InvalidArgument: tensor_scatter_nd_update: the ranks disagree on the op: rank 0 has "
      "tensor_scatter_nd_update, rank 1 tensor_scatter_nd_max");
}

TEST_F(DistAgreement, D3_RanksCallingOpsOfDifferentFamiliesRaiseOnEveryRank) {
  // Rank 1 substr, the others a scatter, on the same communicator.
  ShardedTensor tensor = sharded();
  const ShardedStrings input = strings();
  const TensorBuffer pos = positions(DataType::kInt32);
  EXPECT_EQ(collective_error([&] {
              if (rank_ == 1) {
                dist::substr(input, pos, pos);
              } else {
                dist::tensor_scatter_nd_add_in_place(tensor, in_.indices[rank_],
                                                     in_.updates[rank_]);
              }
            }),
            "InvalidArgument: tensor_scatter_nd_add: the ranks disagree on the op: rank 0 has "
            "tensor_scatter_nd_add, rank 1 substr");
  EXPECT_TRUE(unchanged(tensor));
}

// Every combine of the op table has its own op id, past which the other families' start: mul
// (the sixth) once shared its id with the mask update's sharded form.
TEST_F(DistAgreement, D3_EveryScatterCombineIsAnOpOfItsOwn) {
  ShardedTensor tensor = sharded();
  const TensorBuffer whole = TensorBuffer::create_fixed_size({c_.layout.rows()}, DataType::kBool);
  const ShardedTensor mask(comm_, c_.layout, shard_of(whole, c_.layout, rank_));
  EXPECT_EQ(collective_error([&] {
              if (rank_ == 1) {
                dist::boolean_mask_update_in_place(tensor, mask, make<float>({1}, {5}));
              } else {
                dist::tensor_scatter_nd_mul_in_place(tensor, in_.indices[rank_],
                                                     in_.updates[rank_]);
              }
            }),
            "InvalidArgument: tensor_scatter_nd_mul: the ranks disagree on the op: rank 0 has "
            "tensor_scatter_nd_mul, rank 1 boolean_mask_update with a sharded mask");
  EXPECT_TRUE(unchanged(tensor));
}

TEST_F(DistAgreement, D3_ShardedAndReplicatedMasksAreDifferentOps) {
  // Rank 1 passes its mask replicated, the others sharded.
  ShardedTensor tensor = sharded();
  const TensorBuffer whole = TensorBuffer::create_fixed_size({c_.layout.rows()}, DataType::kBool);
  const ShardedTensor mask(comm_, c_.layout, shard_of(whole, c_.layout, rank_));
  const TensorBuffer updates = make<float>({1}, {5});
  EXPECT_EQ(collective_error([&] {
              if (rank_ == 1) {
                dist::boolean_mask_update_in_place(tensor, whole, updates);
              } else {
                dist::boolean_mask_update_in_place(tensor, mask, updates);
              }
            }),
            "InvalidArgument: boolean_mask_update: the ranks disagree on the op: rank 0 has "
            "boolean_mask_update with a sharded mask, rank 1 boolean_mask_update with a "
            "replicated mask");
  EXPECT_TRUE(unchanged(tensor));
}

TEST_F(DistAgreement, D3_ScatterOptionsMustAgree) {
  ShardedTensor tensor = sharded();
  auto run = [&](const ScatterOptions& options) {
    return collective_error([&] {
      dist::tensor_scatter_nd_add_in_place(tensor, in_.indices[rank_], in_.updates[rank_], options);
    });
  };
  EXPECT_EQ(run({.deterministic = rank_ == 1}),
            "InvalidArgument: tensor_scatter_nd_add: the ranks disagree on the deterministic "
            "flag: rank 0 has false, rank 1 true");
  EXPECT_EQ(
      run({.out_of_bounds = rank_ == 1 ? OutOfBoundsPolicy::kDrop : OutOfBoundsPolicy::kError}),
      "InvalidArgument: tensor_scatter_nd_add: the ranks disagree on the out-of-bounds "
      "policy: rank 0 has error, rank 1 drop");
  EXPECT_TRUE(unchanged(tensor));
}

TEST_F(DistAgreement, D3_MaskUpdateOptionsMustAgree) {
  // float32 [rows, 4] along axis 1 with a replicated mask [4].
  ShardedTensor tensor = sharded();
  const TensorBuffer mask = bool_mask4();
  const TensorBuffer updates = make<float>({1}, {5});
  EXPECT_EQ(collective_error([&] {
              dist::boolean_mask_update_in_place(tensor, mask, updates,
                                                 {.axis = rank_ == 1 ? -1 : 1});
            }),
            "InvalidArgument: boolean_mask_update: the ranks disagree on the axis: rank 0 has 1, "
            "rank 1 -1");
  EXPECT_EQ(collective_error([&] {
              dist::boolean_mask_update_in_place(tensor, mask, updates,
                                                 {.axis = 1, .broadcast = rank_ != 1});
            }),
            "InvalidArgument: boolean_mask_update: the ranks disagree on the broadcast flag: "
            "rank 0 has true, rank 1 false");
  EXPECT_TRUE(unchanged(tensor));
}

TEST_F(DistAgreement, D3_SubstrOptionsMustAgree) {
  const ShardedStrings input = strings();
  const TensorBuffer pos = positions(DataType::kInt32);
  EXPECT_EQ(collective_error([&] {
              dist::substr(input, pos, pos,
                           {.unit = rank_ == 1 ? SubstrUnit::kUtf8Char : SubstrUnit::kByte});
            }),
            "InvalidArgument: substr: the ranks disagree on the unit: rank 0 has byte, rank 1 "
            "utf8_char");
  EXPECT_EQ(collective_error([&] {
              dist::substr(input, pos, pos,
                           {.out_of_bounds =
                                rank_ == 1 ? OutOfBoundsPolicy::kDrop : OutOfBoundsPolicy::kError});
            }),
            "InvalidArgument: substr: the ranks disagree on the out-of-bounds policy: rank 0 has "
            "error, rank 1 drop");
}

TEST_F(DistAgreement, D3_ReplicatedOperandsMustHaveTheSameDtypeAndShape) {
  ShardedTensor tensor = sharded();
  // A replicated mask of another dtype on rank 1 (each rank's call alone is checked by the
  // single-process rules; this one would fail there alone).
  const TensorBuffer mask =
      rank_ == 1 ? TensorBuffer::create_from(bool_mask4(), DataType::kInt8) : bool_mask4();
  EXPECT_EQ(collective_error([&] {
              dist::boolean_mask_update_in_place(tensor, mask, make<float>({1}, {5}), {.axis = 1});
            }),
            "InvalidArgument: boolean_mask_update: rank 1 passes mask int8 [4], rank 0 bool [4] "
            "(a replicated operand must be the same on every rank)");
  EXPECT_TRUE(unchanged(tensor));
  // The same dtype and shape but another true count on rank 1: another global n.
  const TensorBuffer other = TensorBuffer::create_from(
      make<std::uint8_t>({4}, {1, 0, 0, std::uint8_t(rank_ == 1 ? 0 : 1)}), DataType::kBool);
  EXPECT_EQ(collective_error([&] {
              dist::boolean_mask_update_in_place(tensor, other, make<float>({1}, {5}), {.axis = 1});
            }),
            "InvalidArgument: boolean_mask_update: the ranks disagree on the replicated mask's "
            "true count: rank 0 has 2, rank 1 1");
  EXPECT_TRUE(unchanged(tensor));
  // substr's pos in int64 on rank 1, int32 elsewhere.
  const ShardedStrings input = strings();
  const TensorBuffer pos = positions(rank_ == 1 ? DataType::kInt64 : DataType::kInt32);
  const TensorBuffer len = positions(DataType::kInt32);
  EXPECT_EQ(collective_error([&] { dist::substr(input, pos, len); }),
            "InvalidArgument: substr: rank 1 passes pos int64 [2], rank 0 int32 [2] (a "
            "replicated operand must be the same on every rank)");
}

}  // namespace
}  // namespace tensorbuf::dist::testing
