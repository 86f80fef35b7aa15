# tensor_scatter_nd_sub cases: element updates, row updates, all-same index (CPU and CUDA).
tensorbuf_add_bench_cases(bench_scatter_nd.cpp)
