// GoogleTest under MPI: every rank runs every test (and prints its report); collective checks
// keep the ranks in step, and the exit status is the worst over all ranks.
#include <gtest/gtest.h>
#include <mpi.h>

// GCC defines __SANITIZE_ADDRESS__ under ASan; clang 14 answers __has_feature instead.
#if defined(__SANITIZE_ADDRESS__)
#define TENSORBUF_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TENSORBUF_TEST_ASAN 1
#endif
#endif

#if defined(TENSORBUF_TEST_ASAN)
#include <sanitizer/lsan_interface.h>
#endif

int main(int argc, char** argv) {
#if defined(TENSORBUF_TEST_ASAN)
  __lsan_disable();  // Open MPI's start-up loses a few bytes in components it then unloads
#endif
  MPI_Init(&argc, &argv);
#if defined(TENSORBUF_TEST_ASAN)
  __lsan_enable();
#endif
  ::testing::InitGoogleTest(&argc, argv);
  const int failed = RUN_ALL_TESTS();
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
#if defined(TENSORBUF_TEST_ASAN)
  // Leak check before MPI_Finalize: Open MPI drops allocations at finalize from components it
  // has unloaded, which LeakSanitizer could neither attribute nor suppress. Everything of ours
  // is freed by now; the check at exit is then skipped.
  __lsan_do_leak_check();
#endif
  MPI_Finalize();
  return any;
}
