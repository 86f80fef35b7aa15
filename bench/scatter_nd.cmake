# tensor_scatter_nd_sub cases: element updates, row updates, all-same index (CPU and CUDA), and
# with CUDA the plain random-scatter yardstick of the element case.
tensorbuf_add_bench_cases(bench_scatter_nd.cpp)
if(TENSORBUF_WITH_CUDA)
  tensorbuf_add_bench_cases(baseline_scatter.cu)
endif()
tensorbuf_add_bench_cases(sweep_scatter_nd.cpp)
