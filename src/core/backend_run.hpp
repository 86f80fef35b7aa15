// BackendRun: the one device-run protocol of every op (DESIGN.md, "The op template"). It hands
// out each buffer's pointer on the device the op runs on (read / mutate / overwrite, syncing a
// stale side as lazy sync does), and on CUDA records the end of the op's work on every buffer
// it touched, in stream order, with no host wait.
#pragma once

#include <cstddef>

#include "core/dispatch.hpp"
#include "core/export_for_mpi.hpp"
#include "tensorbuf/tensor_buffer.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

class Storage;

class TENSORBUF_INTERNAL_FOR_MPI BackendRun {
 public:
  // A run on `device` (already resolved). For CUDA, `stream` is the caller's (null: the
  // library's); throws UnavailableError when no device memory is usable.
  BackendRun(Device device, Stream stream);
  BackendRun(const BackendRun&) = delete;
  BackendRun& operator=(const BackendRun&) = delete;
  // Without finish() (an error is unwinding): records the end of use on every touched buffer
  // and swallows any failure there, so the error in flight is the one the caller sees. Never
  // throws.
  ~BackendRun();

  bool on_cuda() const { return on_cuda_; }
  // The CUDA backend's context; only meaningful when on_cuda().
  const CudaContext& cuda() const { return context_; }

  // The buffer's bytes on this run's device, valid there (copied from the other side if stale).
  const void* read(const TensorBuffer& buffer);
  // Valid there, and every other copy marked stale: the op updates some of the bytes.
  void* mutate(TensorBuffer& buffer);
  // Not synced (the op writes every byte), every other copy marked stale.
  void* overwrite(TensorBuffer& buffer);
  // dst = src (equal sizes) on this run's device, in stream order.
  void copy(TensorBuffer& dst, const TensorBuffer& src);

  // Records the end of this run's device work on every touched buffer (later readers and other
  // streams wait on it), then writes every written buffer whose home is on the other side back
  // to its home (borrowed or exported memory, docs/interop.md). Every buffer is handled even
  // when one fails; the first failure is thrown. Call it once, after the backend returned.
  void finish();

 private:
  static constexpr int kMaxBuffers = 8;
  void* write(TensorBuffer& buffer, bool keep_contents);
  void touch(Storage& storage, bool written);
  void finish_all(bool rethrow);

  bool on_cuda_;
  bool finished_ = false;
  CudaContext context_;
  Storage* touched_[kMaxBuffers] = {};
  bool written_[kMaxBuffers] = {};
  int touched_count_ = 0;
};

}  // namespace tensorbuf::core
