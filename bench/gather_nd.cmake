# gather_nd cases: 1M random rows of 64 f32 out of [1M, 64], CPU and CUDA.
if(COMMAND tensorbuf_add_bench_cases)
  tensorbuf_add_bench_cases(bench_gather_nd.cpp)
endif()
