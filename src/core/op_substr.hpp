// substr for callers inside the library (tensorbuf::mpi): the run apart from raising its
// out-of-range error, so a caller can name the element by another index
// (core::rejection_message).
#pragma once

#include <optional>

#include "core/backend_run.hpp"
#include "core/export_for_mpi.hpp"
#include "core/substr_backends.hpp"
#include "core/substr_plan.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf::core {

struct SubstrRun {
  std::optional<StringTensor> out;  // unset when result.first_bad_index >= 0 (kError)
  SubstrResult result;
};

// tensorbuf::substr up to its out-of-range error: argument errors still throw.
TENSORBUF_INTERNAL_FOR_MPI SubstrRun run_substr(const StringTensor& input, const TensorBuffer& pos,
                                                const TensorBuffer& len,
                                                const SubstrOptions& options);

// One substr run on `device` around its backend call: the capture check and the bounded form
// (docs/capture.md), the output offsets, the buffers on the run's device (core::BackendRun) and
// the chars allocator; finish() ends the run in stream order and makes the output. run_substr
// calls cpu::substr or cuda::substr in between; tests call the CUDA driver on the host executor
// there (tests/capture/test_substr_op.cpp), so the rest runs as in production.
class SubstrCall {
 public:
  // `plan` from plan_substr with its policy resolved for `device` (core::resolve_device's).
  SubstrCall(const StringTensor& input, const TensorBuffer& pos, const TensorBuffer& len,
             SubstrPlan plan, Device device, Stream stream);
  SubstrCall(const SubstrCall&) = delete;
  SubstrCall& operator=(const SubstrCall&) = delete;

  const SubstrPlan& plan() const { return plan_; }
  const SubstrBuffers& buffers() const { return buffers_; }
  const AllocateChars& allocate_chars() const { return allocate_chars_; }
  BackendRun& backend() { return backend_; }

  // After the backend call: BackendRun::finish, then the output (none when the backend rejected
  // the run).
  SubstrRun finish(const SubstrResult& result);

 private:
  SubstrPlan plan_;
  TensorBuffer out_offsets_;
  std::optional<TensorBuffer> out_chars_;
  const TensorBuffer& in_chars_;
  BackendRun backend_;
  SubstrBuffers buffers_;
  AllocateChars allocate_chars_;
};

}  // namespace tensorbuf::core
