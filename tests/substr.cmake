# StringTensor and substr (issue 6).
tensorbuf_add_test(test_string_tensor SOURCES test_string_tensor.cpp)
tensorbuf_add_test(test_substr SOURCES test_substr.cpp)
