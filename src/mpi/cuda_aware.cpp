#include "mpi/cuda_aware.hpp"

#include <mpi.h>

#include <cstdlib>
#include <string_view>

// Open MPI declares its CUDA extension here; other MPIs may have no such header.
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

namespace tensorbuf::dist::detail {
namespace {

#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
constexpr bool kBuiltAware = true;
bool reports_aware() { return MPIX_Query_cuda_support() == 1; }
#else
constexpr bool kBuiltAware = false;
bool reports_aware() { return false; }
#endif

}  // namespace

bool device_pointers_rule(bool built, bool reports, const char* env) {
  return built && reports && env != nullptr && std::string_view(env) == "1";
}

bool mpi_takes_device_pointers() {
  return device_pointers_rule(kBuiltAware, reports_aware(),
                              std::getenv("TENSORBUF_MPI_CUDA_AWARE"));
}

}  // namespace tensorbuf::dist::detail
