# Tooling: .npy I/O and the `tensorbuf` command-line tool (issue 3).
tensorbuf_add_test(test_npy SOURCES test_npy.cpp)
