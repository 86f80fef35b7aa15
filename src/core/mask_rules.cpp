#include "core/mask_rules.hpp"

#include <cstdint>
#include <vector>

#include "core/error_macros.hpp"

namespace tensorbuf::core {

void check_mask_value(const TensorBuffer& mask) {
  TENSORBUF_EXPECTS(mask.shape().rank() > 0, InvalidArgumentError, "Mask cannot be a scalar.");
  TENSORBUF_EXPECTS(mask.data_type() == DataType::kBool, InvalidArgumentError,
                    str_cat("Mask must be of dtype bool, got ", to_string(mask.data_type()), "."));
}

int mask_axis(const Shape& tensor_shape, const Shape& mask_shape, int axis_option) {
  const int rank = tensor_shape.rank();
  const int mask_rank = mask_shape.rank();
  std::int64_t axis = axis_option;
  if (axis < 0) axis += rank;
  TENSORBUF_EXPECTS(axis >= 0 && axis + mask_rank <= rank, InvalidArgumentError,
                    str_cat("Axis ", axis_option, " is out of range for a tensor of rank ", rank,
                            " and a mask of rank ", mask_rank, " (need 0 <= axis and axis + ",
                            mask_rank, " <= ", rank, ")."));
  const std::vector<std::int64_t>& dims = tensor_shape.dims();
  const Shape required_mask_shape(
      std::vector<std::int64_t>(dims.begin() + axis, dims.begin() + axis + mask_rank));
  TENSORBUF_EXPECTS(mask_shape == required_mask_shape, InvalidArgumentError,
                    str_cat("Mask shape ", mask_shape.to_string(),
                            " is not compatible with the required mask shape: ",
                            required_mask_shape.to_string(), "."));
  return static_cast<int>(axis);
}

}  // namespace tensorbuf::core
