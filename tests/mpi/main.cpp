// GoogleTest under MPI: every rank runs every test (and prints its report); collective checks
// keep the ranks in step, and the exit status is the worst over all ranks.
#include <gtest/gtest.h>
#include <mpi.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

int main(int argc, char** argv) {
#if defined(__SANITIZE_ADDRESS__)
  __lsan_disable();  // Open MPI's start-up loses a few bytes in components it then unloads
#endif
  MPI_Init(&argc, &argv);
#if defined(__SANITIZE_ADDRESS__)
  __lsan_enable();
#endif
  ::testing::InitGoogleTest(&argc, argv);
  const int failed = RUN_ALL_TESTS();
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
#if defined(__SANITIZE_ADDRESS__)
  // Leak check before MPI_Finalize: Open MPI drops allocations at finalize from components it
  // has unloaded, which LeakSanitizer could neither attribute nor suppress. Everything of ours
  // is freed by now; the check at exit is then skipped.
  __lsan_do_leak_check();
#endif
  MPI_Finalize();
  return any;
}
