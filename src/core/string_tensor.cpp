#include "tensorbuf/string_tensor.hpp"

#include <atomic>
#include <cstring>
#include <mutex>
#include <utility>

#include "core/buffer_access.hpp"
#include "core/error_macros.hpp"
#include "core/string_tensor_access.hpp"

namespace tensorbuf {

// A bounded output's state. `capacity` is chars' size as made; `trimmed` is set last by the
// trim, so ops that read it (without the once flag) see chars' final shape when it is true.
struct StringTensor::Bound {
  explicit Bound(std::int64_t capacity_bytes) : capacity(capacity_bytes) {}
  const std::int64_t capacity;
  std::once_flag once;
  std::atomic<bool> trimmed{false};
};

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

StringTensor::StringTensor(StringTensor&&) noexcept = default;
StringTensor& StringTensor::operator=(StringTensor&&) noexcept = default;
StringTensor::~StringTensor() = default;

void StringTensor::trim() const {
  if (!bound_) return;
  std::call_once(bound_->once, [this] {
    // The whole offsets, not just the last one: every later host read then pairs these offsets
    // with chars of exactly their last offset's size, whatever a replay writes on the device.
    const std::int64_t last = offsets_.host<std::int64_t>()[size()];
    TENSORBUF_EXPECTS(
        last >= 0 && last <= bound_->capacity, InternalError,
        core::str_cat("a bounded StringTensor's last offset ", last, " is outside its ",
                      bound_->capacity, " chars (read before its CUDA graph ran?)"));
    core::BufferAccess::shrink(chars_, last);
    bound_->trimmed.store(true, std::memory_order_release);
  });
}

std::int64_t StringTensor::num_chars() const {
  trim();
  return chars_.flat_size();
}

const TensorBuffer& StringTensor::chars() const {
  trim();
  return chars_;
}

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
  trim();
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
  trim();
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
  if (!is_valid_on(device)) trim();  // a no-op sync of an untrimmed output stays one
  offsets_.sync_to(device);
  chars_.sync_to(device);
}

bool StringTensor::is_valid_on(Device device) const {
  return offsets_.is_valid_on(device) && chars_.is_valid_on(device);
}

}  // namespace tensorbuf

namespace tensorbuf::core {

StringTensor StringTensorAccess::make_bounded(TensorBuffer offsets, TensorBuffer chars,
                                              Shape shape) {
  StringTensor strings(std::move(offsets), std::move(chars), std::move(shape));
  const std::int64_t capacity = strings.chars_.flat_size();
  if (capacity > 0) strings.bound_ = std::make_unique<StringTensor::Bound>(capacity);
  return strings;
}

const TensorBuffer& StringTensorAccess::chars_on(const StringTensor& strings, Device device) {
  const StringTensor::Bound* bound = strings.bound_.get();
  if (bound != nullptr && !bound->trimmed.load(std::memory_order_acquire) && device.is_cuda() &&
      strings.chars_.is_valid_on(device)) {
    return strings.chars_;
  }
  return strings.chars();
}

std::int64_t StringTensorAccess::chars_bound(const StringTensor& strings) {
  const StringTensor::Bound* bound = strings.bound_.get();
  if (bound != nullptr && !bound->trimmed.load(std::memory_order_acquire)) return bound->capacity;
  return strings.chars_.flat_size();
}

}  // namespace tensorbuf::core
