# Reliability (issue 7): fault injection inside the CUDA backend's drivers on the host
# executor, and limits (int64 overflow, dims near INT64_MAX, ranks 0 and 8, zero sizes,
# strings past 2^31 bytes) through every op.
tensorbuf_add_test(test_driver_faults SOURCES test_driver_faults.cpp)
tensorbuf_add_test(test_limits SOURCES test_limits.cpp test_limits_ranks.cpp)
