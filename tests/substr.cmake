# StringTensor and substr (issue 6).
tensorbuf_add_test(test_string_tensor SOURCES test_string_tensor.cpp)
tensorbuf_add_test(test_substr SOURCES test_substr.cpp)
tensorbuf_add_test(test_substr_driver SOURCES test_substr_driver.cpp)
tensorbuf_add_test(test_substr_random SOURCES test_substr_random.cpp)
tensorbuf_add_test(test_substr_cuda SOURCES test_substr_cuda.cpp)
tensorbuf_add_test(test_substr_vectors SOURCES test_substr_vectors.cpp)
