// Whether a CUDA run hands device pointers to MPI (spec/distributed.md D3): only when the MPI
// library was built CUDA-aware, says so at run time, and the user asks for it. Otherwise the
// routed rows cross to pinned host memory first (staging, the default).
#pragma once

namespace tensorbuf::dist::detail {

// The rule: `built` (MPIX_CUDA_AWARE_SUPPORT was 1 when tensorbuf was compiled), `reports`
// (MPIX_Query_cuda_support() returns 1 now) and `env` (TENSORBUF_MPI_CUDA_AWARE) exactly "1".
bool device_pointers_rule(bool built, bool reports, const char* env);

// The rule for this process's MPI and environment. Per rank: MPI moves bytes between device
// and host memory alike, so ranks need not agree.
bool mpi_takes_device_pointers();

}  // namespace tensorbuf::dist::detail
