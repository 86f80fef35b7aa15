// Running the CUDA backend's scatter driver (src/kernels/scatter_nd.hpp) and the CPU backend
// directly on host buffers, for the driver and randomized tests.
#pragma once

#include <string>

#include "core/op_errors.hpp"
#include "core/plan_scatter_nd.hpp"
#include "cpu/cpu_features.hpp"
#include "cpu/scatter_nd_tuning.hpp"
#include "kernels/host_executor.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf::testing::scatter {

// The scatter driver for plan.op, plan.dtype and plan.index_dtype. Defined once, in
// driver_run.cpp: every op x dtype x index type instantiation is the costliest code of the
// tests to compile, so the test files that run the driver share one copy.
core::ScatterNdResult run_driver(kernels::HostExecutor& executor, const core::ScatterNdPlan& plan,
                                 const core::ScatterNdBuffers& buffers);

// How to run a backend directly.
enum class Backend {
  kDriverForward,
  kDriverReverse,
  kDriverDeterministic,
  kCpuOwners,
  kCpuBuckets
};

inline const char* backend_name(Backend backend) {
  switch (backend) {
    case Backend::kDriverForward:
      return "driver(forward)";
    case Backend::kDriverReverse:
      return "driver(reverse)";
    case Backend::kDriverDeterministic:
      return "driver(deterministic)";
    case Backend::kCpuOwners:
      return "cpu(forced owners)";
    case Backend::kCpuBuckets:
      return "cpu(forced buckets)";
  }
  return "?";
}

// The outcome of a direct run: the output (or the in-place tensor) and the error text, if any.
struct DirectResult {
  TensorBuffer out = TensorBuffer::create_dynamic(DataType::kFloat32);
  std::string error;
  int host_reads = 0;  // read_value calls of the driver (host waits on CUDA)
};

inline DirectResult run_direct(Backend backend, core::ScatterOp op, const TensorBuffer& tensor,
                               const TensorBuffer& indices, const TensorBuffer& updates,
                               OutOfBoundsPolicy policy, bool in_place_run, int owners = 3) {
  core::ScatterNdPlan plan = core::plan_scatter_nd(op, tensor, indices, updates);
  plan.policy = policy;
  plan.deterministic = backend == Backend::kDriverDeterministic;
  DirectResult result;
  result.out = tensor.clone();
  core::ScatterNdBuffers buffers;
  buffers.indices = indices.host_bytes();
  buffers.updates = updates.host_bytes();
  TensorBuffer fresh = TensorBuffer::create_uninitialized(tensor.shape(), tensor.data_type());
  if (in_place_run) {
    buffers.out = result.out.mutable_host_bytes();
    buffers.tensor = buffers.out;
  } else {
    buffers.tensor = tensor.host_bytes();
    buffers.out = fresh.overwrite_host_bytes();
  }
  core::ScatterNdResult r;
  if (backend == Backend::kCpuOwners || backend == Backend::kCpuBuckets) {
    cpu::ScatterNdTuning tuning;
    if (backend == Backend::kCpuOwners) {
      tuning.owners = owners;  // more than the slices in some tests: element ranges then
      tuning.prefetch = owners % 2;  // both walks (1 owner: sole, 3 and 5: listed) prefetching
    } else {
      tuning.bucket_bytes = 16 * owners;  // several blocks of few slices (wider: owners)
    }
    // Even owner counts run the portable twins of the x86 paths (min / max rows under
    // AVX-512, the in-place check), odd ones what this CPU has.
    cpu::set_simd_enabled(owners % 2 == 1);
    r = cpu::scatter_nd_tuned(plan, buffers, tuning);
    cpu::set_simd_enabled(true);
  } else {
    kernels::HostExecutor executor(backend != Backend::kDriverForward);
    r = run_driver(executor, plan, buffers);
    result.host_reads = executor.reads();
  }
  if (r.first_bad_index >= 0 && policy == OutOfBoundsPolicy::kError) {
    result.error = core::rejection_message(plan, r);
  }
  if (!in_place_run && result.error.empty()) result.out = std::move(fresh);
  return result;
}

}  // namespace tensorbuf::testing::scatter
