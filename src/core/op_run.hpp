// The one run shape of the ops in src/core/op_*.cpp (DESIGN.md, "The op table"): after its plan
// an op calls place_op (the device, the options the plan carries resolved for it, the capture
// check), allocates its output, and run_op binds the buffers' roles on that device
// (core::BackendRun), calls the CPU or the CUDA entry point, ends the run and raises the
// backend's rejection (core/op_errors.hpp). An op that updates a tensor binds it with
// bind_update and runs in place under the aliasing rule with update_in_place. Plain function
// templates, so a debugger steps through them as through the op.
#pragma once

#include <initializer_list>
#include <utility>

#include "core/backend_run.hpp"
#include "core/buffer_access.hpp"
#include "core/capture.hpp"
#include "core/dispatch.hpp"
#include "core/in_place.hpp"
#include "core/op_errors.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::core {

// Where an op runs: the device chosen for it and the caller's stream.
struct OpPlace {
  Device device;
  Stream stream;
};

// The steps between the plan and the buffers: the device (options.device, else `home`'s), the
// options the plan carries resolved for it (out_of_bounds into plan.policy, deterministic),
// then the capture check with `blocker(plan)` (core/capture.hpp; null: it can be captured).
// Throws before any buffer is touched.
template <class Plan, class Options, class Blocker>
OpPlace place_op(const char* op, Plan& plan, const Options& options, const TensorBuffer& home,
                 Blocker&& blocker) {
  const Device device = resolve_device(options.device, home);
  if constexpr (requires { options.out_of_bounds; }) {
    plan.policy = resolve_policy(options.out_of_bounds, device);
  }
  if constexpr (requires { options.deterministic; }) plan.deterministic = options.deterministic;
  reject_capture(op, std::forward<Blocker>(blocker)(std::as_const(plan)), device, options.stream);
  return OpPlace{device, options.stream};
}

// The backend call on `backend`'s device, then BackendRun::finish (the buffers released in
// stream order). Returns the backend's result.
template <class Plan, class Buffers, class Result>
Result run_backend(BackendRun& backend, const Plan& plan, const Buffers& buffers,
                   Result (*cpu)(const Plan&, const Buffers&),
                   Result (*cuda)(const Plan&, const Buffers&, const CudaContext&)) {
  const Result result =
      backend.on_cuda() ? cuda(plan, buffers, backend.cuda()) : cpu(plan, buffers);
  backend.finish();
  return result;
}

// One run of an op at `at`: `bind(backend, buffers)` hands each buffer to the backend in its
// role (BackendRun::read / mutate / overwrite), then the backend runs, and a rejected run
// raises the spec's error (core::raise_if_rejected: rejection_message(plan, result)).
template <class Plan, class Buffers, class Result, class Bind>
void run_op(OpPlace at, const Plan& plan, Bind&& bind, Result (*cpu)(const Plan&, const Buffers&),
            Result (*cuda)(const Plan&, const Buffers&, const CudaContext&)) {
  BackendRun backend(at.device, at.stream);
  Buffers buffers;
  std::forward<Bind>(bind)(backend, buffers);
  raise_if_rejected(plan, run_backend(backend, plan, buffers, cpu, cuda));
}

// The written buffer of an op whose result is `tensor` with some elements updated: `out` is
// `tensor` itself in place (mutated: every backend checks before it writes, so a rejected run
// leaves it as it was) or a new buffer (tensor read, out overwritten).
template <class Buffers>
void bind_update(BackendRun& backend, Buffers& buffers, const TensorBuffer& tensor,
                 TensorBuffer& out) {
  if (&out == &tensor) {
    buffers.out = backend.mutate(out);
    buffers.tensor = buffers.out;
  } else {
    buffers.tensor = backend.read(tensor);
    buffers.out = backend.overwrite(out);
  }
}

// One run of an indexed update (a scatter op: updates written at indices) into `out`, `tensor`
// itself in place: indices and updates read, the tensor bound by bind_update. Under kError the
// backend checks before it writes.
template <class Plan, class Cpu, class Cuda>
void run_indexed_update(OpPlace at, const Plan& plan, const TensorBuffer& tensor,
                        const TensorBuffer& indices, const TensorBuffer& updates,
                        TensorBuffer& out, Cpu cpu, Cuda cuda) {
  run_op(
      at, plan,
      [&](BackendRun& backend, auto& buffers) {
        buffers.indices = backend.read(indices);
        buffers.updates = backend.read(updates);
        bind_update(backend, buffers, tensor, out);
      },
      cpu, cuda);
}

// The out-of-place form of such an op: a new buffer of tensor's shape and dtype (allocated only
// when the backend writes it, so a bad argument costs nothing) given to `run(out)`.
template <class Run>
TensorBuffer update_out_of_place(const TensorBuffer& tensor, Run&& run) {
  TensorBuffer out =
      TensorBuffer::create_uninitialized(BufferAccess::shape(tensor), tensor.data_type());
  std::forward<Run>(run)(out);
  return out;
}

// The in-place form, under the aliasing rule (core/in_place.hpp): when any of `inputs` shares
// memory with `tensor` (overlapping ranges on some side, DESIGN.md), `run` writes a new buffer
// copied into `tensor` afterwards; else `run(tensor)`.
template <class Run>
void update_in_place(OpPlace at, TensorBuffer& tensor,
                     std::initializer_list<const TensorBuffer*> inputs, Run&& run) {
  bool aliased = false;
  for (const TensorBuffer* input : inputs) aliased = aliased || shares_memory(tensor, *input);
  run_in_place(tensor, aliased, at.device, at.stream, std::forward<Run>(run));
}

}  // namespace tensorbuf::core
