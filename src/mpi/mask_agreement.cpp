#include "mpi/mask_agreement.hpp"

#include "core/error_macros.hpp"

namespace tensorbuf::dist::detail {

std::int64_t count_true(const TensorBuffer& mask) {
  if (mask.data_type() != DataType::kBool || mask.flat_size() == 0) return 0;
  const auto* bytes = mask.host<std::uint8_t>();
  std::int64_t n = 0;
  for (std::int64_t i = 0; i < mask.flat_size(); ++i) n += bytes[i] != 0 ? 1 : 0;
  return n;
}

TensorBuffer global_tensor_stand_in(const ShardedTensor& tensor) {
  return TensorBuffer::create_uninitialized(tensor.global_shape(), tensor.local().data_type());
}

TensorBuffer global_mask_stand_in(const MaskCall& call, const ShardedTensor* sharded) {
  std::vector<std::int64_t> dims = call.masks[0].dims;
  if (sharded != nullptr && !dims.empty()) dims[0] = sharded->layout().rows();
  return TensorBuffer::create_uninitialized(Shape(dims), call.masks[0].dtype);
}

void check_mask_axis(std::string_view name, bool sharded, int plan_axis, int requested) {
  if (sharded) {
    TENSORBUF_EXPECTS(plan_axis == 0, InvalidArgumentError,
                      core::str_cat(name, ": a sharded mask goes along axis 0, got axis ",
                                    requested, " (pass a replicated mask for axis >= 1)"));
  } else {
    TENSORBUF_EXPECTS(plan_axis >= 1, InvalidArgumentError,
                      core::str_cat(name, ": a replicated mask goes along axis >= 1, got axis ",
                                    requested, " (shard the mask for axis 0)"));
  }
}

}  // namespace tensorbuf::dist::detail
