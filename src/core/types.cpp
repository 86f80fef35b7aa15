#include <limits>

#include "tensorbuf/error_classes.hpp"
#include "core/error_macros.hpp"
#include "tensorbuf/spellings.hpp"
#include "tensorbuf/errors.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf {

std::string_view to_string(ErrorCode code) {
  const auto index = static_cast<std::size_t>(code);
  return index < kErrorClasses.size() ? kErrorClasses[index].name : "Unknown";
}

std::size_t type_size(DataType type) {
  switch (type) {
    case DataType::kBool:
    case DataType::kUInt8:
    case DataType::kInt8: return 1;
    case DataType::kInt16:
    case DataType::kFloat16:
    case DataType::kBFloat16: return 2;
    case DataType::kInt32:
    case DataType::kFloat32: return 4;
    case DataType::kInt64:
    case DataType::kFloat64: return 8;
  }
  throw InvalidArgumentError("unknown DataType");
}

std::string_view to_string(DataType type) { return spelling(type); }

Shape::Shape(std::initializer_list<std::int64_t> dims) : Shape(std::vector<std::int64_t>(dims)) {}

Shape::Shape(std::vector<std::int64_t> dims) : dims_(std::move(dims)) {
  std::int64_t count = 1;
  bool overflow = false;
  for (std::int64_t d : dims_) {
    TENSORBUF_EXPECTS(d >= 0, InvalidArgumentError,
                      "Values in TensorBuffer shape should be non-negative.");
  }
  for (std::int64_t d : dims_) {
    if (d == 0) {
      count = 0;
      overflow = false;
      break;
    }
    if (__builtin_mul_overflow(count, d, &count)) overflow = true;
  }
  TENSORBUF_EXPECTS(
      !overflow, InvalidArgumentError,
      core::str_cat("shape ", to_string(), " has more elements than int64 can count"));
  num_elements_ = count;
}

std::string Shape::to_string() const {
  std::string out = "[";
  for (std::size_t i = 0; i < dims_.size(); ++i) {
    if (i != 0) out += ',';
    out += std::to_string(dims_[i]);
  }
  return out + "]";
}

std::string Device::to_string() const { return spelling(*this); }

}  // namespace tensorbuf
