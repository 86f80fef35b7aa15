#include "core/backend_run.hpp"

#include <cstring>
#include <exception>

#include "core/buffer_access.hpp"
#include "core/error_macros.hpp"
#include "core/storage.hpp"

namespace tensorbuf::core {

BackendRun::BackendRun(Device device, Stream stream) : on_cuda_(device.is_cuda()) {
  if (on_cuda_) context_ = cuda_context(device, stream);
}

BackendRun::~BackendRun() {
  if (!finished_) finish_all(/*rethrow=*/false);
}

void BackendRun::touch(Storage& storage, bool written) {
  // An op touches at most kMaxBuffers buffers (one per operand and output; no op has more than
  // six); reaching the limit is a bug here.
  TENSORBUF_EXPECTS(touched_count_ < kMaxBuffers, InternalError,
                    "BackendRun: more buffers than kMaxBuffers");
  written_[touched_count_] = written;
  touched_[touched_count_++] = &storage;
}

const void* BackendRun::read(const TensorBuffer& buffer) {
  Storage& storage = BufferAccess::storage(buffer);
  if (!on_cuda_) return storage.host_read();
  const void* ptr = storage.device_read(context_.device, context_.stream);
  touch(storage, /*written=*/false);
  return ptr;
}

void* BackendRun::mutate(TensorBuffer& buffer) { return write(buffer, /*keep_contents=*/true); }

void* BackendRun::overwrite(TensorBuffer& buffer) { return write(buffer, /*keep_contents=*/false); }

void* BackendRun::write(TensorBuffer& buffer, bool keep_contents) {
  Storage& storage = BufferAccess::storage(buffer);
  void* ptr = on_cuda_ ? storage.device_write(context_.device, context_.stream, keep_contents)
                       : storage.host_write(keep_contents);
  touch(storage, /*written=*/true);
  return ptr;
}

void BackendRun::copy(TensorBuffer& dst, const TensorBuffer& src) {
  const std::size_t bytes = src.size_bytes();
  TENSORBUF_EXPECTS(dst.size_bytes() == bytes, InternalError,
                    str_cat("BackendRun::copy: ", bytes, " bytes into ", dst.size_bytes()));
  const void* from = read(src);
  void* to = overwrite(dst);
  if (bytes == 0) return;
  if (on_cuda_) {
    context_.memory->copy_device_to_device(to, from, bytes, context_.device, context_.stream);
  } else {
    std::memcpy(to, from, bytes);
  }
}

void BackendRun::finish() { finish_all(/*rethrow=*/true); }

void BackendRun::finish_all(bool rethrow) {
  finished_ = true;
  std::exception_ptr first;
  for (int i = 0; i < touched_count_ && on_cuda_; ++i) {
    try {
      touched_[i]->finish_device_use(context_.stream);
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  for (int i = 0; i < touched_count_; ++i) {
    if (!written_[i]) continue;
    try {
      touched_[i]->write_back_home();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first && rethrow) std::rethrow_exception(first);
}

}  // namespace tensorbuf::core
