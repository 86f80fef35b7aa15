// ShardedTensor: construction checks (collective).
#include "core/error_macros.hpp"
#include "dist/collective.hpp"
#include "dist/validate.hpp"
#include "tensorbuf/dist.hpp"

namespace tensorbuf::dist {

ShardedTensor::ShardedTensor(Comm comm, RowLayout layout, TensorBuffer local)
    : comm_(std::move(comm)), layout_(std::move(layout)), local_(std::move(local)) {
  constexpr std::string_view kWho = "ShardedTensor";
  const detail::BufferDesc mine = detail::describe(local_);
  detail::agree(comm_, [&] { detail::check_local_shard(kWho, comm_, layout_, mine); });
  // The same layout everywhere: rank 0's, compared on each rank.
  std::vector<std::int64_t> root = layout_.offsets;
  MPI_Bcast(root.data(), static_cast<int>(root.size()), MPI_INT64_T, 0, comm_.get());
  detail::agree(comm_, [&] {
    TENSORBUF_EXPECTS(root == layout_.offsets, InvalidArgumentError,
                      core::str_cat(kWho, ": rank ", comm_.rank(),
                                    "'s layout differs from rank 0's"));
  });
  detail::Record record;
  record.add(mine);
  std::vector<detail::BufferDesc> shards;
  for (const auto& words : detail::allgather(comm_, record.words())) {
    shards.push_back(detail::RecordReader(words).next_desc());
  }
  detail::check_shards(kWho, layout_, shards);  // the same data on every rank
}

Shape ShardedTensor::global_shape() const {
  std::vector<std::int64_t> dims = local_.shape().dims();
  dims[0] = layout_.rows();
  return Shape(std::move(dims));
}

}  // namespace tensorbuf::dist
