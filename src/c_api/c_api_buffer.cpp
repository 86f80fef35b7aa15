// The C API's buffers: create, borrow, copies, queries, synchronize and DLPack.
#include <cstring>
#include <utility>

#include "c_api/c_api_internal.hpp"
#include "core/buffer_access.hpp"
#include "core/error_macros.hpp"
#include "tensorbuf/dlpack.hpp"
#include "tensorbuf/runtime.hpp"

namespace tensorbuf::c_api {
namespace {

static_assert(TB_BOOL == static_cast<int>(DataType::kBool) &&
                  TB_UINT8 == static_cast<int>(DataType::kUInt8) &&
                  TB_INT8 == static_cast<int>(DataType::kInt8) &&
                  TB_INT16 == static_cast<int>(DataType::kInt16) &&
                  TB_INT32 == static_cast<int>(DataType::kInt32) &&
                  TB_INT64 == static_cast<int>(DataType::kInt64) &&
                  TB_FLOAT16 == static_cast<int>(DataType::kFloat16) &&
                  TB_BFLOAT16 == static_cast<int>(DataType::kBFloat16) &&
                  TB_FLOAT32 == static_cast<int>(DataType::kFloat32) &&
                  TB_FLOAT64 == static_cast<int>(DataType::kFloat64),
              "tb_dtype follows DataType's order");

void require_byte_count(const TensorBuffer& buffer, std::size_t bytes) {
  TENSORBUF_EXPECTS(bytes == buffer.size_bytes(), InvalidArgumentError,
                    core::str_cat("bytes is ", bytes, ", the buffer holds ", buffer.size_bytes()));
}

tb_status borrow(const char* function, const tb_borrow_desc& desc, tb_buffer** out) {
  return guarded(function, [&] {
    require(out, "out");
    const Shape shape = to_shape(desc.ndim, desc.shape);
    const DataType type = to_data_type(raw_value(desc.dtype));
    const Device device = to_device(desc.device);
    BorrowOptions options;
    options.read_only = desc.read_only != 0;
    options.ready_stream = Stream{desc.ready_stream};
    if (TENSORBUF_C_HAS_FIELD(&desc, tb_borrow_desc, cache_mirror)) {
      options.cache_mirror = desc.cache_mirror != 0;
    }
    if (desc.release != nullptr) {
      options.release = [release = desc.release, ctx = desc.release_ctx](Stream last_use) {
        release(ctx, last_use.handle);
      };
    }
    // The handle first: once borrow() succeeds nothing may fail, or release would run.
    NewHandle handle;
    handle.set(TensorBuffer::borrow(desc.data, shape, type, device, std::move(options)));
    *out = handle.publish();
  });
}

}  // namespace
}  // namespace tensorbuf::c_api

using namespace tensorbuf;
using namespace tensorbuf::c_api;

extern "C" {

tb_status tb_buffer_create(tb_dtype dtype, int ndim, const int64_t* shape,
                           tb_buffer** out) noexcept {
  return guarded(__func__, [&] {
    publish_result(out, [&] {
      return TensorBuffer::create_fixed_size(to_shape(ndim, shape), to_data_type(raw_value(dtype)));
    });
  });
}

tb_status tb_buffer_borrow(void* data, tb_dtype dtype, int ndim, const int64_t* shape,
                           tb_device device, int read_only, void* ready_stream,
                           tb_buffer** out) noexcept {
  tb_borrow_desc desc{};
  desc.struct_size = sizeof desc;
  desc.data = data;
  std::memcpy(&desc.dtype, &dtype, sizeof dtype);  // any int a C caller passed (raw_value)
  desc.ndim = ndim;
  desc.shape = shape;
  desc.device = device;
  desc.read_only = read_only;
  desc.ready_stream = ready_stream;
  return borrow(__func__, desc, out);
}

tb_status tb_buffer_borrow_ex(const tb_borrow_desc* desc, tb_buffer** out) noexcept {
  // Checked apart from borrow(), which may not fail once it took the memory.
  const tb_status checked = guarded(__func__, [&] {
    require(desc, "desc");
    require_struct_size(desc->struct_size, {offsetof(tb_borrow_desc, cache_mirror)},
                        sizeof(tb_borrow_desc), "desc");
  });
  return checked == TB_OK ? borrow(__func__, *desc, out) : checked;
}

tb_status tb_buffer_note_external_write(tb_buffer* buffer) noexcept {
  return guarded(__func__, [&] { buffer_of(buffer, "buffer")->note_external_write(); });
}

// NULL: nothing, silently. A destroyed or invalid handle: nothing, and the error recorded for
// tb_last_error (the function returns no status).
void tb_buffer_destroy(tb_buffer* buffer) noexcept {
  if (buffer == nullptr) return;
  guarded(__func__, [&] { destroy_handle(buffer, "buffer"); });
}

tb_status tb_buffer_copy_to_host(const tb_buffer* buffer, void* dst, size_t bytes) noexcept {
  return guarded(__func__, [&] {
    const std::shared_ptr<const TensorBuffer> b = buffer_of(buffer, "buffer");
    require(dst, "dst");
    require_byte_count(*b, bytes);
    if (bytes > 0) std::memcpy(dst, b->host_bytes(), bytes);
  });
}

tb_status tb_buffer_copy_from_host(tb_buffer* buffer, const void* src, size_t bytes) noexcept {
  return guarded(__func__, [&] {
    const std::shared_ptr<TensorBuffer> b = buffer_of(buffer, "buffer");
    require(src, "src");
    require_byte_count(*b, bytes);
    // As TensorBuffer::load_buffer does for borrowed memory, for every buffer: the bytes are
    // copied (C callers may free `src` on return), and a home on the other side is written.
    core::Storage& storage = core::BufferAccess::storage(*b);
    void* target = storage.host_write(false);  // throws for read-only memory, nothing changed
    if (bytes > 0) std::memcpy(target, src, bytes);
    storage.write_back_home();
  });
}

tb_status tb_buffer_dtype(const tb_buffer* buffer, tb_dtype* out) noexcept {
  return guarded(__func__, [&] {
    const std::shared_ptr<const TensorBuffer> b = buffer_of(buffer, "buffer");
    require(out, "out");
    *out = to_tb_dtype(b->data_type());
  });
}

tb_status tb_buffer_shape(const tb_buffer* buffer, int* ndim, int64_t* shape) noexcept {
  return guarded(__func__, [&] {
    const std::shared_ptr<const TensorBuffer> b = buffer_of(buffer, "buffer");
    require(ndim, "ndim");
    require(shape, "shape");
    write_shape(b->shape(), ndim, shape);
  });
}

tb_status tb_synchronize(tb_device device, void* stream) noexcept {
  return guarded(__func__, [&] { synchronize(to_device(device), Stream{stream}); });
}

tb_status tb_buffer_to_dlpack_versioned(const tb_buffer* buffer, void* consumer_stream,
                                        DLManagedTensorVersioned** out) noexcept {
  return guarded(__func__, [&] {
    const std::shared_ptr<const TensorBuffer> b = buffer_of(buffer, "buffer");
    require(out, "out");
    DLPackExportOptions options;
    options.consumer_stream = Stream{consumer_stream};
    *out = to_dlpack_versioned(*b, options);
  });
}

tb_status tb_buffer_from_dlpack_versioned(DLManagedTensorVersioned* tensor, void* stream,
                                          tb_buffer** out) noexcept {
  bool consumed = false;  // from_dlpack calls the deleter itself, also when it throws
  const tb_status status = guarded(__func__, [&] {
    require(tensor, "tensor");
    require(out, "out");
    NewHandle handle;
    DLPackImportOptions options;
    options.stream = Stream{stream};
    consumed = true;
    handle.set(from_dlpack(tensor, options));
    *out = handle.publish();
  });
  if (!consumed && tensor != nullptr && tensor->deleter != nullptr) tensor->deleter(tensor);
  return status;
}

}  // extern "C"
