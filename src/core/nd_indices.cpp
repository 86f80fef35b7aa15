#include "core/nd_indices.hpp"

#include "core/error_macros.hpp"

namespace tensorbuf::core {

void check_index_dtype(std::string_view op, DataType indices_dtype) {
  TENSORBUF_EXPECTS(
      indices_dtype == DataType::kInt32 || indices_dtype == DataType::kInt64, InvalidArgumentError,
      str_cat(op, ": indices must be int32 or int64, got ", to_string(indices_dtype)));
}

std::int64_t slice_strides(const std::vector<std::int64_t>& dims, int first, int depth,
                           SmallDims& strides) {
  const auto begin = static_cast<std::size_t>(first);
  const auto count = static_cast<std::size_t>(depth);
  std::int64_t slices = 1;
  bool overflow = false;
  for (std::size_t i = 0; i < count; ++i) {
    overflow |= __builtin_mul_overflow(slices, dims[begin + i], &slices);
  }
  strides.assign(count, 0);
  if (overflow) return 0;
  std::int64_t stride = 1;
  for (std::size_t i = count; i-- > 0;) {
    strides[i] = stride;
    stride *= dims[begin + i];
  }
  return slices;
}

std::string bad_index_message(const SmallDims& indices_dims, std::int64_t row,
                              const std::vector<std::int64_t>& components,
                              const std::vector<std::int64_t>& shape) {
  std::string out = "indices";
  const int batch_rank = indices_dims.rank() - 1;
  if (batch_rank > 0) {
    // The unflattened position of `row` in indices.shape[:-1].
    std::vector<std::int64_t> position(static_cast<std::size_t>(batch_rank));
    std::int64_t rest = row;
    for (int i = batch_rank - 1; i >= 0; --i) {
      const std::int64_t dim = indices_dims[static_cast<std::size_t>(i)];
      position[static_cast<std::size_t>(i)] = dim == 0 ? 0 : rest % dim;
      rest = dim == 0 ? 0 : rest / dim;
    }
    out += '[';
    for (int i = 0; i < batch_rank; ++i) {
      if (i != 0) out += ',';
      out += std::to_string(position[static_cast<std::size_t>(i)]);
    }
    out += ']';
  }
  out += " = [";
  for (std::size_t i = 0; i < components.size(); ++i) {
    if (i != 0) out += ", ";
    out += std::to_string(components[i]);
  }
  out += "] does not index into shape ";
  out += Shape(shape).to_string();
  return out;
}

}  // namespace tensorbuf::core
