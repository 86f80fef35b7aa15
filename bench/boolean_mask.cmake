# boolean_mask cases: [4M, 8] f32 and [2^26] f32 with a 1-D mask at density 0.5, CPU and CUDA.
if(COMMAND tensorbuf_add_bench_cases)
  tensorbuf_add_bench_cases(bench_boolean_mask.cpp)
endif()
