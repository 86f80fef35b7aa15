# boolean_mask_update (issue 5): spec rules and vectors, the CUDA driver on the host executor,
# randomized comparison with a serial reference, NumPy vector files, CUDA vs CPU.
tensorbuf_add_test(test_boolean_mask_update SOURCES
  test_boolean_mask_update.cpp
  test_boolean_mask_update_random.cpp
  test_boolean_mask_update_vectors.cpp
  test_boolean_mask_update_cuda.cpp
  test_boolean_mask_update_simd.cpp)
