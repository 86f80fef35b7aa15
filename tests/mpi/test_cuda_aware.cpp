// D3: device pointers go to MPI only when MPI is CUDA-aware at build and run time and
// TENSORBUF_MPI_CUDA_AWARE=1; otherwise CUDA shards stage through pinned host memory.
#include "mpi/cuda_aware.hpp"
#include "mpi/helpers.hpp"

#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

namespace tensorbuf::dist::testing {
namespace {

TEST(DistCudaAware, D3_DevicePointersNeedAllThreeConditions) {
  for (const bool built : {false, true}) {
    for (const bool reports : {false, true}) {
      EXPECT_FALSE(detail::device_pointers_rule(built, reports, nullptr));
      for (const char* env : {"", "0", "true", "yes", "01", " 1", "1 ", "2"}) {
        EXPECT_FALSE(detail::device_pointers_rule(built, reports, env)) << "env '" << env << "'";
      }
      EXPECT_EQ(detail::device_pointers_rule(built, reports, "1"), built && reports)
          << "built " << built << ", reports " << reports;
    }
  }
}

TEST(DistCudaAware, D3_WithoutTheVariableMpiNeverGetsDevicePointers) {
  for (const char* value : {static_cast<const char*>(nullptr), "0", ""}) {
    const ScopedCudaAwareVariable variable(value);
    EXPECT_FALSE(detail::mpi_takes_device_pointers());
  }
}

TEST(DistCudaAware, D3_TheVariableAloneIsNotEnough) {
  // This MPI's own answer, asked here: the variable turns the path on only where it is yes.
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  const bool aware = MPIX_Query_cuda_support() == 1;
#else
  const bool aware = false;
#endif
  const ScopedCudaAwareVariable variable("1");
  EXPECT_EQ(detail::mpi_takes_device_pointers(), aware);
}

}  // namespace
}  // namespace tensorbuf::dist::testing
