// D3: device pointers go to MPI only when MPI is CUDA-aware at build and run time and
// TENSORBUF_MPI_CUDA_AWARE=1; otherwise CUDA shards stage through pinned host memory.
#include <cstdlib>
#include <optional>
#include <string>

#include "dist/cuda_aware.hpp"
#include "dist/helpers.hpp"

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

// Sets TENSORBUF_MPI_CUDA_AWARE for one scope, then restores what was there.
class ScopedVariable {
 public:
  explicit ScopedVariable(const char* value) {
    if (const char* old = std::getenv(kName)) old_ = old;
    if (value != nullptr) {
      setenv(kName, value, 1);
    } else {
      unsetenv(kName);
    }
  }
  ~ScopedVariable() {
    if (old_) {
      setenv(kName, old_->c_str(), 1);
    } else {
      unsetenv(kName);
    }
  }
  ScopedVariable(const ScopedVariable&) = delete;
  ScopedVariable& operator=(const ScopedVariable&) = delete;

 private:
  static constexpr const char* kName = "TENSORBUF_MPI_CUDA_AWARE";
  std::optional<std::string> old_;
};

TEST(DistCudaAware, D3_WithoutTheVariableMpiNeverGetsDevicePointers) {
  for (const char* value : {static_cast<const char*>(nullptr), "0", ""}) {
    const ScopedVariable variable(value);
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
  const ScopedVariable variable("1");
  EXPECT_EQ(detail::mpi_takes_device_pointers(), aware);
}

}  // namespace
}  // namespace tensorbuf::dist::testing
