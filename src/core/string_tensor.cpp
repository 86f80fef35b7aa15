#include "tensorbuf/string_tensor.hpp"

#include <cstring>
#include <utility>

#include "core/error_macros.hpp"
#include "core/string_tensor_access.hpp"

namespace tensorbuf {
namespace {

// offsets [0, |v0|, |v0|+|v1|, ...] and the concatenated bytes, written on the host.
template <class View>
StringTensor build(std::span<const View> values, const Shape& shape) {
  const std::int64_t n = shape.num_elements();
  TENSORBUF_EXPECTS(static_cast<std::int64_t>(values.size()) == n, InvalidArgumentError,
                    core::str_cat("a StringTensor of shape ", shape.to_string(), " needs ", n,
                                  " strings, got ", values.size()));
  std::int64_t total = 0;
  for (const auto& v : values) {
    TENSORBUF_EXPECTS(!__builtin_add_overflow(total, static_cast<std::int64_t>(v.size()), &total),
                      InvalidArgumentError, "the strings hold more bytes than int64 can count");
  }
  TensorBuffer offsets = TensorBuffer::create_uninitialized(Shape{n + 1}, DataType::kInt64);
  TensorBuffer chars = TensorBuffer::create_uninitialized(Shape{total}, DataType::kUInt8);
  auto* off = offsets.overwrite_host<std::int64_t>();
  auto* out = static_cast<std::uint8_t*>(chars.overwrite_host_bytes());
  std::int64_t at = 0;
  off[0] = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const auto& v = values[static_cast<std::size_t>(i)];
    if (!v.empty()) std::memcpy(out + at, v.data(), v.size());
    at += static_cast<std::int64_t>(v.size());
    off[i + 1] = at;
  }
  return core::StringTensorAccess::make_unchecked(std::move(offsets), std::move(chars), shape);
}

}  // namespace

StringTensor::StringTensor()
    : StringTensor(TensorBuffer::create_fixed_size(Shape{1}, DataType::kInt64),
                   TensorBuffer::create_fixed_size(Shape{0}, DataType::kUInt8), Shape{0}) {}

StringTensor::StringTensor(TensorBuffer offsets, TensorBuffer chars, Shape shape)
    : offsets_(std::move(offsets)), chars_(std::move(chars)), shape_(std::move(shape)) {}

StringTensor StringTensor::from_strings(const std::vector<std::string>& values,
                                        const Shape& shape) {
  return build(std::span<const std::string>(values), shape);
}

StringTensor StringTensor::from_strings(std::span<const std::string_view> values,
                                        const Shape& shape) {
  return build(values, shape);
}

StringTensor StringTensor::from_buffers(TensorBuffer offsets, TensorBuffer chars,
                                        const Shape& shape) {
  const std::int64_t n = shape.num_elements();
  TENSORBUF_EXPECTS(
      offsets.data_type() == DataType::kInt64, InvalidArgumentError,
      core::str_cat("StringTensor offsets must be int64, got ", to_string(offsets.data_type())));
  TENSORBUF_EXPECTS(
      chars.data_type() == DataType::kUInt8, InvalidArgumentError,
      core::str_cat("StringTensor chars must be uint8, got ", to_string(chars.data_type())));
  TENSORBUF_EXPECTS(offsets.flat_size() - 1 == n, InvalidArgumentError,
                    core::str_cat("StringTensor of shape ", shape.to_string(), " needs ", n,
                                  " + 1 offsets, got ", offsets.flat_size()));
  const std::int64_t* off = offsets.host<std::int64_t>();
  TENSORBUF_EXPECTS(off[0] == 0, InvalidArgumentError,
                    core::str_cat("StringTensor offsets must start at 0, got ", off[0]));
  for (std::int64_t i = 0; i < n; ++i) {
    TENSORBUF_EXPECTS(off[i] <= off[i + 1], InvalidArgumentError,
                      core::str_cat("StringTensor offsets must be non-decreasing, got ", off[i],
                                    " then ", off[i + 1], " at index ", i + 1));
  }
  TENSORBUF_EXPECTS(off[n] == chars.flat_size(), InvalidArgumentError,
                    core::str_cat("the last StringTensor offset must equal the chars size ",
                                  chars.flat_size(), ", got ", off[n]));
  return StringTensor(std::move(offsets), std::move(chars), shape);
}

std::string_view StringTensor::at(std::int64_t i) const {
  TENSORBUF_EXPECTS(
      i >= 0 && i < size(), OutOfRangeError,
      core::str_cat("index ", i, " is out of range for a StringTensor of ", size(), " strings"));
  const std::int64_t* off = offsets_.host<std::int64_t>();
  const auto* bytes = static_cast<const char*>(chars_.host_bytes());
  const std::int64_t length = off[i + 1] - off[i];
  if (length == 0) return {};
  return {bytes + off[i], static_cast<std::size_t>(length)};
}

std::vector<std::string> StringTensor::to_strings() const {
  const std::int64_t n = size();
  std::vector<std::string> out;
  out.reserve(static_cast<std::size_t>(n));
  if (n == 0) return out;
  const std::int64_t* off = offsets_.host<std::int64_t>();
  const auto* bytes = static_cast<const char*>(chars_.host_bytes());
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t length = off[i + 1] - off[i];
    if (length == 0) {
      out.emplace_back();
    } else {
      out.emplace_back(bytes + off[i], static_cast<std::size_t>(length));
    }
  }
  return out;
}

void StringTensor::sync_to(Device device) const {
  offsets_.sync_to(device);
  chars_.sync_to(device);
}

bool StringTensor::is_valid_on(Device device) const {
  return offsets_.is_valid_on(device) && chars_.is_valid_on(device);
}

}  // namespace tensorbuf
