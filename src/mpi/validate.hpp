// Every check of tensorbuf::dist in one place. The ranks first all-gather small descriptors
// (dtype, shape, device of each operand); the checks below then run on the same data on every
// rank, so every rank raises the same error, before any data moves (spec/distributed.md D3).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/gather_nd_plan.hpp"
#include "core/scatter_nd_plan.hpp"
#include "tensorbuf/dist.hpp"

namespace tensorbuf::dist::detail {

// What one rank says about one buffer.
struct BufferDesc {
  DataType dtype = DataType::kFloat32;
  std::vector<std::int64_t> dims;
  Device::Kind kind = Device::Kind::kCpu;  // where its freshest copy lives
};

// A flat int64 record of descriptors, to all-gather.
class Record {
 public:
  void add(std::int64_t value) { words_.push_back(value); }
  void add(const BufferDesc& desc);
  const std::vector<std::int64_t>& words() const { return words_; }

 private:
  std::vector<std::int64_t> words_;
};

// Reads a Record back, in the order it was written.
class RecordReader {
 public:
  explicit RecordReader(const std::vector<std::int64_t>& words) : words_(words) {}
  std::int64_t next() { return words_.at(pos_++); }
  BufferDesc next_desc();

 private:
  const std::vector<std::int64_t>& words_;
  std::size_t pos_ = 0;
};

BufferDesc describe(const TensorBuffer& buffer);

// "float32 [3,4]".
std::string desc_text(const BufferDesc& desc);

// Local checks of a new ShardedTensor: rank >= 1, a layout of comm.size() ranks from 0,
// non-decreasing, and local rows == the layout's for this rank. InvalidArgumentError.
void check_local_shard(std::string_view who, const Comm& comm, const RowLayout& layout,
                       const BufferDesc& local);

// Collective, the whole check of a new ShardedTensor / ShardedStrings: check_local_shard on
// each rank (agreed), the same layout as rank 0's, then check_shards on every rank's shard.
void check_new_shard(std::string_view who, const Comm& comm, const RowLayout& layout,
                     const BufferDesc& local);

// Every rank's shard (in rank order) against the layout and rank 0's shard: rows as the layout
// says, the same dtype, trailing dims and device kind. InvalidArgumentError naming the first
// rank that differs; `what` names the operand.
void check_shards(std::string_view who, const RowLayout& layout,
                  const std::vector<BufferDesc>& shards, std::string_view what = "tensor");

// InvalidArgumentError unless every rank's `values[q]` equals rank 0's; `what` names it.
void check_agreed(std::string_view who, std::string_view what,
                  const std::vector<std::int64_t>& values, std::string (*text)(std::int64_t value));

// Operands held by different Comm objects must have congruent communicators and equal layouts.
void check_same_distribution(std::string_view who, const Comm& a, const RowLayout& la,
                             const Comm& b, const RowLayout& lb);

// The distributed scatter's arguments, one entry per rank: the local indices and updates.
// Validates them as the single-process op on the concatenation (the same message when they
// can be concatenated), and returns the plan of that single-process op. `row_starts` gets each
// rank's first row in the concatenated indices (size()+1 entries).
core::ScatterNdPlan check_scatter(core::ScatterOp op, const Shape& global_shape, DataType dtype,
                                  const std::vector<BufferDesc>& indices,
                                  const std::vector<BufferDesc>& updates,
                                  std::vector<std::int64_t>& row_starts);

// Distributed gather_nd's arguments: every rank's local indices. Validates them as the
// single-process gather_nd of the global params (`global_shape`, `dtype`) with the indices
// concatenated in rank order (the same message), and returns that call's plan. Indices must
// have rank >= 2 and be concatenable (dtype and all dims but the first as rank 0's).
// `row_starts` gets each rank's first row (over indices.shape[:-1]) in the concatenation.
core::GatherNdPlan check_gather_nd(const Shape& global_shape, DataType dtype, int batch_dims,
                                   const std::vector<BufferDesc>& indices,
                                   std::vector<std::int64_t>& row_starts);

}  // namespace tensorbuf::dist::detail
