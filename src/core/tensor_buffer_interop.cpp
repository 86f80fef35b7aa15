// TensorBuffer over memory it does not own: borrow, the owner's stream and write notices, and
// the pipeline's control over where copies live (docs/interop.md, I1).
#include <cstdint>

#include "core/buffer_access.hpp"
#include "core/device_memory.hpp"
#include "core/dispatch.hpp"
#include "core/error_macros.hpp"
#include "core/storage.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf {
namespace {

core::Side side_of(Device device) {
  return device.is_cuda() ? core::Side::kDevice : core::Side::kHost;
}

}  // namespace

namespace core {

TensorBuffer BufferAccess::borrow(void* data, const Shape& shape, DataType type, Device device,
                                  BorrowedMemory memory) {
  const std::size_t element = tensorbuf::type_size(type);
  std::int64_t bytes = 0;
  TENSORBUF_EXPECTS(
      !__builtin_mul_overflow(shape.num_elements(), static_cast<std::int64_t>(element), &bytes),
      InvalidArgumentError,
      core::str_cat("shape ", shape.to_string(), " of ", to_string(type),
                    " needs more bytes than int64 can count"));
  TENSORBUF_EXPECTS(data != nullptr || bytes == 0, InvalidArgumentError,
                    core::str_cat("borrow: null data for a ", shape.to_string(), " ",
                                  to_string(type), " tensor"));
  TENSORBUF_EXPECTS(reinterpret_cast<std::uintptr_t>(data) % element == 0, InvalidArgumentError,
                    core::str_cat("borrow: ", to_string(type), " data at ", data,
                                  " is not aligned to its ", element, "-byte element size"));
  // The device index is checked against the real devices; without CUDA, Storage::borrow
  // raises UnavailableError (a test device memory stands in for one on CPU-only machines).
  if (device.is_cuda() && cuda_available()) require_usable(device);
  memory.data = data;
  memory.bytes = static_cast<std::size_t>(bytes);
  memory.side = side_of(device);
  memory.device = device.is_cuda() ? device.index : 0;
  // The shape is copied before the storage takes the release: a failing copy must not run it.
  Shape owned_shape = shape;
  return TensorBuffer(type, std::move(owned_shape), false, Storage::borrow(std::move(memory)));
}

}  // namespace core

TensorBuffer TensorBuffer::borrow(void* data, const Shape& shape, DataType type, Device device,
                                  BorrowOptions options) {
  core::BorrowedMemory memory;
  memory.read_only = options.read_only;
  memory.cache_mirror = options.cache_mirror;
  memory.ready_stream = options.ready_stream.handle;
  memory.release = std::move(options.release);
  return core::BufferAccess::borrow(data, shape, type, device, std::move(memory));
}

TensorBuffer TensorBuffer::borrow(const void* data, const Shape& shape, DataType type,
                                  Device device, BorrowOptions options) {
  options.read_only = true;
  return borrow(const_cast<void*>(data), shape, type, device, std::move(options));
}

bool TensorBuffer::is_borrowed() const { return storage_->is_borrowed(); }
bool TensorBuffer::is_read_only() const { return storage_->is_read_only(); }
bool TensorBuffer::is_copy_on_write() const {
  // A borrowed home is caller memory too, but it is written in place.
  return !storage_->is_borrowed() && storage_->host_valid() &&
         storage_->references_caller_memory();
}

void TensorBuffer::wait_for(Stream producer) {
  const int index = storage_->device_index();
  storage_->wait_for(producer.handle, index >= 0 ? index : 0);
}

void TensorBuffer::note_external_write() { storage_->note_external_write(); }

void TensorBuffer::evict(Device device) { storage_->evict(side_of(device), device.index); }

std::size_t TensorBuffer::bytes_on(Device device) const {
  return storage_->bytes_on(side_of(device), device.index);
}

}  // namespace tensorbuf
