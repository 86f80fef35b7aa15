#include "tensorbuf/tensor_buffer.hpp"

#include <cstring>
#include <limits>

#include "core/convert.hpp"
#include "core/device_memory.hpp"
#include "core/error_macros.hpp"
#include "core/storage.hpp"

namespace tensorbuf {
namespace {

// Element count times element size, or InvalidArgumentError when it overflows.
std::size_t checked_byte_size(const Shape& shape, DataType type) {
  std::int64_t bytes = 0;
  TENSORBUF_EXPECTS(
      !__builtin_mul_overflow(shape.num_elements(), static_cast<std::int64_t>(type_size(type)),
                              &bytes),
      InvalidArgumentError,
      core::str_cat("shape ", shape.to_string(), " of ", to_string(type),
                    " needs more bytes than int64 can count"));
  return static_cast<std::size_t>(bytes);
}

// The device a buffer's device accessors use: where its device copy is, else cuda:0.
int accessor_device(const core::Storage& storage) {
  const int index = storage.device_index();
  return index >= 0 ? index : 0;
}

core::DeviceMemory& require_device_memory() {
  core::DeviceMemory* memory = core::device_memory();
  TENSORBUF_EXPECTS(memory != nullptr, UnavailableError,
                    core::str_cat("no usable CUDA device: ", cuda_availability_reason()));
  return *memory;
}

}  // namespace

TensorBuffer::TensorBuffer(DataType type, Shape shape, bool dynamic,
                           std::shared_ptr<core::Storage> storage)
    : type_(type), shape_(std::move(shape)), dynamic_(dynamic), storage_(std::move(storage)) {}

TensorBuffer::TensorBuffer(TensorBuffer&&) noexcept = default;
TensorBuffer& TensorBuffer::operator=(TensorBuffer&&) noexcept = default;
TensorBuffer::~TensorBuffer() = default;

TensorBuffer TensorBuffer::create_dynamic(DataType type) {
  tensorbuf::type_size(type);  // rejects an out-of-range enum value
  return TensorBuffer(type, Shape{0}, true, core::Storage::allocate(0, true));
}

TensorBuffer TensorBuffer::create_fixed_size(const Shape& shape, DataType type) {
  const std::size_t bytes = checked_byte_size(shape, type);
  return TensorBuffer(type, shape, false, core::Storage::allocate(bytes, true));
}

TensorBuffer TensorBuffer::create_uninitialized(const Shape& shape, DataType type) {
  const std::size_t bytes = checked_byte_size(shape, type);
  return TensorBuffer(type, shape, false, core::Storage::unallocated(bytes));
}

TensorBuffer TensorBuffer::create_from(const TensorBuffer& src, DataType type) {
  const std::size_t bytes = checked_byte_size(src.shape_, type);
  std::unique_ptr<core::Storage> storage = core::Storage::allocate(bytes, false);
  core::convert_buffer(src.host_bytes(), src.type_, storage->host_write(false), type,
                       src.flat_size());
  return TensorBuffer(type, src.shape_, src.dynamic_, std::move(storage));
}

TensorBuffer TensorBuffer::clone() const { return create_from(*this, type_); }

std::size_t TensorBuffer::type_size() const { return tensorbuf::type_size(type_); }
std::size_t TensorBuffer::size_bytes() const { return storage_->bytes(); }

void TensorBuffer::check_loadable_shape(const Shape& shape) const {
  TENSORBUF_EXPECTS(dynamic_ || shape == shape_, InvalidArgumentError,
                    core::str_cat("a fixed-size TensorBuffer of shape ", shape_.to_string(),
                                  " cannot be loaded with shape ", shape.to_string()));
}

template <class Source>
void TensorBuffer::load_converted(std::span<const Source> values, const Shape& shape) {
  TENSORBUF_EXPECTS(static_cast<std::int64_t>(values.size()) == shape.num_elements(),
                    InvalidArgumentError,
                    "The size of the array to be loaded does not match the specified shape.");
  check_loadable_shape(shape);
  const std::size_t bytes = checked_byte_size(shape, type_);
  // Everything that can throw (allocation) happens before the buffer changes.
  std::unique_ptr<core::Storage> fresh;
  void* target = nullptr;
  if (bytes == storage_->bytes()) {
    target = storage_->host_write(false);
  } else {
    storage_->require_unpinned("load_array of another size");
    fresh = core::Storage::allocate(bytes, false);
    target = fresh->host_write(false);
  }
  core::convert_buffer(values.data(), DataTypeOf<Source>::value, target, type_,
                       static_cast<std::int64_t>(values.size()));
  if (fresh) {
    storage_ = std::move(fresh);
  } else {
    storage_->write_back_home();  // a borrowed device home gets the loaded bytes
  }
  shape_ = shape;
}

void TensorBuffer::load_array(std::span<const float> values, const Shape& shape) {
  load_converted(values, shape);
}
void TensorBuffer::load_array(std::span<const std::int32_t> values, const Shape& shape) {
  load_converted(values, shape);
}
void TensorBuffer::load_array(std::span<const float> values) { load_converted(values, shape_); }
void TensorBuffer::load_array(std::span<const std::int32_t> values) {
  load_converted(values, shape_);
}

void TensorBuffer::load_buffer(std::span<const std::byte> bytes, const Shape& shape) {
  const std::size_t expected = checked_byte_size(shape, type_);
  TENSORBUF_EXPECTS(bytes.size() == expected, InvalidArgumentError,
                    core::str_cat("The size of byte buffer and the shape do not match. Expected: ",
                                  expected, " Actual: ", bytes.size()));
  check_loadable_shape(shape);
  if (storage_->is_borrowed()) {
    // Borrowed memory is the home: the bytes are copied into it, never referenced.
    void* target = storage_->host_write(false);
    if (!bytes.empty()) std::memcpy(target, bytes.data(), bytes.size());
    storage_->write_back_home();
    return;
  }
  storage_->require_unpinned("load_buffer");
  storage_ = core::Storage::reference(bytes.data(), bytes.size());
  shape_ = shape;
}

void TensorBuffer::load_buffer(std::span<const std::byte> bytes) { load_buffer(bytes, shape_); }

std::vector<float> TensorBuffer::get_float_array() const {
  std::vector<float> out(static_cast<std::size_t>(flat_size()));
  core::convert_buffer(host_bytes(), type_, out.data(), DataType::kFloat32, flat_size());
  return out;
}

std::vector<std::int32_t> TensorBuffer::get_int_array() const {
  std::vector<std::int32_t> out(static_cast<std::size_t>(flat_size()));
  core::convert_buffer(host_bytes(), type_, out.data(), DataType::kInt32, flat_size());
  return out;
}

namespace {

// Element `index` of `b` converted to `To` (a float or int32 read).
template <class To>
To read_element(const TensorBuffer& b, std::int64_t index) {
  TENSORBUF_EXPECTS(index >= 0 && index < b.flat_size(), OutOfRangeError,
                    core::str_cat("index ", index, " is out of range for a TensorBuffer of ",
                                  b.flat_size(), " elements"));
  To out{};
  const auto* base = static_cast<const std::byte*>(b.host_bytes());
  core::convert_buffer(base + index * static_cast<std::int64_t>(b.type_size()), b.data_type(),
                       &out, DataTypeOf<To>::value, 1);
  return out;
}

}  // namespace

float TensorBuffer::get_float_value(std::int64_t index) const {
  return read_element<float>(*this, index);
}

std::int32_t TensorBuffer::get_int_value(std::int64_t index) const {
  return read_element<std::int32_t>(*this, index);
}

void TensorBuffer::check_element_type(DataType requested) const {
  const bool matches =
      requested == type_ || (type_ == DataType::kBool && requested == DataType::kUInt8);
  TENSORBUF_EXPECTS(matches, InvalidArgumentError,
                    core::str_cat("buffer holds ", to_string(type_), ", accessed as ",
                                  to_string(requested)));
}

const void* TensorBuffer::host_data(DataType requested) const {
  check_element_type(requested);
  return host_bytes();
}
void* TensorBuffer::mutable_host_data(DataType requested) {
  check_element_type(requested);
  return mutable_host_bytes();
}
void* TensorBuffer::overwrite_host_data(DataType requested) {
  check_element_type(requested);
  return overwrite_host_bytes();
}
const void* TensorBuffer::device_data(DataType requested) const {
  check_element_type(requested);
  return device_bytes();
}
void* TensorBuffer::mutable_device_data(DataType requested) {
  check_element_type(requested);
  return mutable_device_bytes();
}
void* TensorBuffer::overwrite_device_data(DataType requested) {
  check_element_type(requested);
  return overwrite_device_bytes();
}

const void* TensorBuffer::host_bytes() const { return storage_->host_read(); }
void* TensorBuffer::mutable_host_bytes() { return storage_->host_write(true); }
void* TensorBuffer::overwrite_host_bytes() { return storage_->host_write(false); }

// The public device accessors run on the library's stream; the use is recorded right away,
// since the caller's work with the pointer is ordered after it on that stream.
const void* TensorBuffer::device_bytes() const {
  core::DeviceMemory& memory = require_device_memory();
  const int device = accessor_device(*storage_);
  core::StreamHandle stream = memory.default_stream(device);
  const void* ptr = storage_->device_read(device, stream);
  storage_->finish_device_use(stream);
  return ptr;
}

void* TensorBuffer::mutable_device_bytes() {
  core::DeviceMemory& memory = require_device_memory();
  const int device = accessor_device(*storage_);
  core::StreamHandle stream = memory.default_stream(device);
  void* ptr = storage_->device_write(device, stream, true);
  storage_->finish_device_use(stream);
  return ptr;
}

void* TensorBuffer::overwrite_device_bytes() {
  core::DeviceMemory& memory = require_device_memory();
  const int device = accessor_device(*storage_);
  core::StreamHandle stream = memory.default_stream(device);
  void* ptr = storage_->device_write(device, stream, false);
  storage_->finish_device_use(stream);
  return ptr;
}

void TensorBuffer::sync_to(Device device) const {
  if (!device.is_cuda()) {
    storage_->host_read();
    return;
  }
  core::DeviceMemory& memory = require_device_memory();
  core::StreamHandle stream = memory.default_stream(device.index);
  storage_->device_read(device.index, stream);
  storage_->finish_device_use(stream);
}

bool TensorBuffer::is_valid_on(Device device) const {
  if (!device.is_cuda()) return storage_->host_valid();
  return storage_->device_valid() && storage_->device_index() == device.index;
}

Device TensorBuffer::residence() const {
  if (storage_->residence() == core::Side::kDevice) return Device::cuda(storage_->device_index());
  return Device::cpu();
}

}  // namespace tensorbuf
