// ShardedTensor: construction checks (collective).
#include "mpi/validate.hpp"
#include "tensorbuf/dist.hpp"

namespace tensorbuf::dist {

ShardedTensor::ShardedTensor(Comm comm, RowLayout layout, TensorBuffer local)
    : comm_(std::move(comm)), layout_(std::move(layout)), local_(std::move(local)) {
  detail::check_new_shard("ShardedTensor", comm_, layout_, detail::describe(local_));
}

Shape ShardedTensor::global_shape() const {
  std::vector<std::int64_t> dims = local_.shape().dims();
  dims[0] = layout_.rows();
  return Shape(std::move(dims));
}

}  // namespace tensorbuf::dist
