# TensorBuffer cases: load_array conversions (CPU), host<->device sync (CUDA).
tensorbuf_add_bench_cases(bench_tensor_buffer.cpp)
