# StringTensor and substr (issue 6).
tensorbuf_add_test(test_string_tensor SOURCES test_string_tensor.cpp)
