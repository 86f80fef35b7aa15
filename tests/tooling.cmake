# Tooling: .npy I/O and the `tensorbuf` command-line tool (issue 3).
tensorbuf_add_test(test_npy SOURCES test_npy.cpp)

if(TARGET tensorbuf_cli)
  # End-to-end: the built binary itself is run on .npy files.
  tensorbuf_add_test(test_cli SOURCES test_cli.cpp)
  add_dependencies(test_cli tensorbuf_cli)
  target_compile_definitions(test_cli PRIVATE
    TENSORBUF_CLI_PATH="$<TARGET_FILE:tensorbuf_cli>"
    TENSORBUF_CLI_HAS_BENCH=$<TARGET_EXISTS:tensorbuf_bench_cases>)
endif()

# The float -> uint8 fast path of src/core/convert.cpp (the load_array speed target).
tensorbuf_add_test(test_convert_fast_path SOURCES test_convert_fast_path.cpp)
