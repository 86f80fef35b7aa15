// The C API's handles: a process-wide table of buffers and one of processors
// (c_api_handle_table.hpp). A handle is never dereferenced: lookup in its table checks it.
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>

#include "c_api/c_api_handle_table.hpp"
#include "c_api/c_api_internal.hpp"
#include "tensorbuf/processing.hpp"

namespace tensorbuf::c_api {
namespace {

using BufferTable = HandleTable<std::optional<TensorBuffer>>;
using ProcessorTable = HandleTable<const Processor>;

// Never destroyed: handles may be used or destroyed by other threads and static destructors
// while the process exits.
BufferTable& buffers() {
  static BufferTable* const instance = new BufferTable(HandleKind::kBuffer, "buffers");
  return *instance;
}

ProcessorTable& processors() {
  static ProcessorTable* const instance = new ProcessorTable(HandleKind::kProcessor, "processors");
  return *instance;
}

template <class Handle>
std::uintptr_t bits(Handle* handle) {
  return reinterpret_cast<std::uintptr_t>(handle);
}

}  // namespace

std::shared_ptr<const TensorBuffer> buffer_of(const tb_buffer* handle, const char* name) {
  require(handle, name);
  std::shared_ptr<std::optional<TensorBuffer>> buffer = buffers().find(bits(handle), name);
  const TensorBuffer* value = &**buffer;
  return std::shared_ptr<const TensorBuffer>(std::move(buffer), value);
}

std::shared_ptr<TensorBuffer> buffer_of(tb_buffer* handle, const char* name) {
  require(handle, name);
  std::shared_ptr<std::optional<TensorBuffer>> buffer = buffers().find(bits(handle), name);
  TensorBuffer* value = &**buffer;
  return std::shared_ptr<TensorBuffer>(std::move(buffer), value);
}

void destroy_handle(tb_buffer* handle, const char* name) {
  require(handle, name);
  buffers().remove(bits(handle), name);  // the buffer is freed here, outside the table's lock
}

NewHandle::NewHandle() : holder_(std::make_shared<std::optional<TensorBuffer>>()) {
  slot_ = buffers().reserve();
}

NewHandle::~NewHandle() {
  if (!published_) buffers().release(slot_);
}

void NewHandle::set(TensorBuffer buffer) noexcept { *holder_ = std::move(buffer); }

tb_buffer* NewHandle::publish() noexcept {
  published_ = true;
  return reinterpret_cast<tb_buffer*>(buffers().publish(slot_, std::move(holder_)));
}

std::shared_ptr<const Processor> processor_of(const tb_processor* handle, const char* name) {
  require(handle, name);
  return processors().find(bits(handle), name);
}

tb_processor* publish_processor(Processor processor) {
  auto held = std::make_shared<const Processor>(std::move(processor));
  const std::uint32_t slot = processors().reserve();
  return reinterpret_cast<tb_processor*>(processors().publish(slot, std::move(held)));
}

void destroy_processor_handle(tb_processor* handle, const char* name) {
  require(handle, name);
  processors().remove(bits(handle), name);  // freed here, outside the table's lock
}

}  // namespace tensorbuf::c_api
