// The process the library runs in: CPU threads and code paths, and waiting for device work.
#pragma once

#include "tensorbuf/export.h"
#include "tensorbuf/types.hpp"

namespace tensorbuf {

/// Threads the CPU backend may use: TENSORBUF_NUM_THREADS if set (>= 1), else the hardware
/// concurrency. Never throws.
TENSORBUF_API int cpu_thread_count();

/// The CPU code paths with an AVX-512 twin, declared once: X(field of CpuCodePaths, what
/// `tensorbuf info` calls it, what the CPU needs, in the names of src/cpu/cpu_features.hpp).
/// The ops take each path by the same test that reports it.
/// - substr_avx512: substr's UTF-8 scans (AVX-512BW + BMI2)
/// - mask_update_avx512: boolean_mask_update's expand-load path (AVX-512BW)
/// - scatter_avx512: tensor_scatter_nd_*: the rows of float and double tensors, and kError's
///   check of depth-1 indices before an in-place write (AVX-512F; taken on the CPUs that have
///   AVX-512BW)
#define TENSORBUF_CPU_CODE_PATHS(X)                                                         \
  X(substr_avx512, "substr UTF-8 scans", avx512bw && bmi2)                                  \
  X(mask_update_avx512, "boolean_mask_update", avx512bw)                                    \
  X(scatter_avx512, "tensor_scatter_nd float rows and index check", avx512bw)

/// Which CPU code the ops run in this process, a field per TENSORBUF_CPU_CODE_PATHS entry. The
/// AVX-512 paths need the CPU's support and an x86 build without TENSORBUF_PORTABLE; elsewhere
/// their portable twins run, with the same results (docs/substr.md,
/// docs/boolean_mask_update.md).
struct CpuCodePaths {
#define TENSORBUF_CPU_CODE_PATH_FIELD(field, what, needs) bool field = false;
  TENSORBUF_CPU_CODE_PATHS(TENSORBUF_CPU_CODE_PATH_FIELD)
#undef TENSORBUF_CPU_CODE_PATH_FIELD
};
/// Detected once; never throws.
TENSORBUF_API CpuCodePaths cpu_code_paths();

/// Blocks until the device work enqueued so far on `stream` of `device` has finished (a null
/// stream: the library's stream of that device, where ops run by default). On the CPU it
/// returns at once: a CPU op has finished when it returns. Throws UnavailableError when
/// `device` is CUDA and not usable, InternalError when the CUDA runtime fails.
TENSORBUF_API void synchronize(Device device, Stream stream = {});

}  // namespace tensorbuf
