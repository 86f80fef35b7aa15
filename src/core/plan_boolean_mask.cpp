#include "core/plan_boolean_mask.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "core/error_macros.hpp"
#include "core/mask_rules.hpp"
#include "core/shape_product.hpp"

namespace tensorbuf::core {
namespace {

// The tensor viewed as [outer, axis_size, inner] around dims [axis, axis + mask_rank).
BooleanMaskPlan view(const TensorBuffer& tensor, int axis, int mask_rank) {
  const Shape shape = tensor.shape();
  const std::vector<std::int64_t>& dims = shape.dims();
  const auto first = static_cast<std::size_t>(axis);
  const auto last = first + static_cast<std::size_t>(mask_rank);
  BooleanMaskPlan plan;
  plan.dtype = tensor.data_type();
  plan.element_size = tensor.type_size();
  plan.outer = dims_product(dims, 0, first);
  plan.axis_size = dims_product(dims, first, last);
  plan.mask_size = plan.axis_size;
  plan.inner = dims_product(dims, last, dims.size());
  plan.axis = axis;
  plan.mask_rank = mask_rank;
  return plan;
}

// The output shape with "C" in the mask's place, for messages: "[2,C,3]".
std::string capacity_shape_text(const Shape& shape, int axis, int mask_rank) {
  const std::vector<std::int64_t>& dims = shape.dims();
  std::string text = "[";
  for (int i = 0; i < static_cast<int>(dims.size()); ++i) {
    if (i > axis && i < axis + mask_rank) continue;
    if (text.size() > 1) text.append(",");
    text.append(i == axis ? "C" : std::to_string(dims[static_cast<std::size_t>(i)]));
  }
  text.append("]");
  return text;
}

}  // namespace

Shape boolean_mask_output_shape(const Shape& shape, int axis, int mask_rank, std::int64_t n) {
  const std::vector<std::int64_t>& dims = shape.dims();
  std::vector<std::int64_t> out(dims.begin(), dims.begin() + axis);
  out.push_back(n);
  out.insert(out.end(), dims.begin() + axis + mask_rank, dims.end());
  return Shape(std::move(out));
}

Shape boolean_mask_output_shape(const BooleanMaskPlan& plan, const Shape& shape, std::int64_t n) {
  if (plan.flatten) return Shape{n};
  return boolean_mask_output_shape(shape, plan.axis, plan.mask_rank, n);
}

BooleanMaskPlan plan_boolean_mask(const TensorBuffer& tensor, const TensorBuffer& mask,
                                  const BooleanMaskOptions& options) {
  check_mask_value(mask);
  const int axis = mask_axis(tensor.shape(), mask.shape(), options.axis);
  return view(tensor, axis, mask.shape().rank());
}

BooleanMaskPlan plan_boolean_mask_into(const TensorBuffer& tensor, const TensorBuffer& mask,
                                       const TensorBuffer& out, const TensorBuffer& count,
                                       const BooleanMaskOptions& options) {
  check_mask_value(mask);
  const int axis = mask_axis(tensor.shape(), mask.shape(), options.axis);
  const int mask_rank = mask.shape().rank();
  BooleanMaskPlan plan = view(tensor, axis, mask_rank);
  TENSORBUF_EXPECTS(out.data_type() == tensor.data_type(), InvalidArgumentError,
                    str_cat("out is ", to_string(out.data_type()), " but tensor is ",
                            to_string(tensor.data_type()), "."));
  const Shape& out_shape = out.shape();
  const std::int64_t capacity =
      out_shape.rank() == tensor.shape().rank() - mask_rank + 1 ? out_shape.dims()[axis] : -1;
  TENSORBUF_EXPECTS(
      capacity >= 0 &&
          out_shape == boolean_mask_output_shape(tensor.shape(), axis, mask_rank, capacity),
      InvalidArgumentError,
      str_cat("out has shape ", out_shape.to_string(), "; boolean_mask_into needs ",
              capacity_shape_text(tensor.shape(), axis, mask_rank),
              " for a capacity C (the mask's dims replaced by one)."));
  TENSORBUF_EXPECTS(count.data_type() == DataType::kInt64 && count.flat_size() == 1,
                    InvalidArgumentError,
                    str_cat("count must be one int64 element, got ", to_string(count.data_type()),
                            " of shape ", count.shape().to_string(), "."));
  plan.capacity = capacity;
  return plan;
}

BooleanMaskPlan plan_compress(const TensorBuffer& input, const TensorBuffer& condition,
                              const CompressOptions& options) {
  TENSORBUF_EXPECTS(condition.data_type() == DataType::kBool, InvalidArgumentError,
                    str_cat("Condition must be of dtype bool, got ",
                            to_string(condition.data_type()), "."));
  TENSORBUF_EXPECTS(condition.shape().rank() == 1, InvalidArgumentError,
                    str_cat("Condition must be 1-D, got shape ", condition.shape().to_string(),
                            "."));
  const int rank = input.shape().rank();
  BooleanMaskPlan plan;
  if (options.axis) {
    std::int64_t axis = *options.axis;
    if (axis < 0) axis += rank;
    TENSORBUF_EXPECTS(axis >= 0 && axis < rank, InvalidArgumentError,
                      str_cat("Axis ", *options.axis, " is out of range for an input of rank ",
                              rank, " (need -", rank, " <= axis < ", rank, ")."));
    plan = view(input, static_cast<int>(axis), 1);
  } else {
    plan.dtype = input.data_type();
    plan.element_size = input.type_size();
    plan.axis_size = input.flat_size();
    plan.mask_size = plan.axis_size;
    plan.flatten = true;
  }
  const std::int64_t length = condition.flat_size();
  if (length > plan.axis_size) {
    // ONNX leaves it undefined; a true entry past the end would select a slice that does not
    // exist, so it is an error (docs/boolean_mask.md). Read on the host: the error path's
    // price, paid only by conditions longer than the axis.
    const auto* bytes = static_cast<const std::uint8_t*>(condition.host_bytes());
    for (std::int64_t i = plan.axis_size; i < length; ++i) {
      TENSORBUF_EXPECTS(bytes[i] == 0, InvalidArgumentError,
                        str_cat("Condition entry ", i, " is true, but the axis has only ",
                                plan.axis_size, " entries (condition of length ", length, ")."));
    }
  }
  plan.mask_size = length < plan.axis_size ? length : plan.axis_size;
  return plan;
}

const char* boolean_mask_capture_blocker(const BooleanMaskPlan&) {
  return "its output's shape depends on the count of true entries, read back on the host "
         "(boolean_mask_into takes a caller-sized output instead)";
}

const char* boolean_mask_into_capture_blocker(const BooleanMaskPlan&) { return nullptr; }

}  // namespace tensorbuf::core
