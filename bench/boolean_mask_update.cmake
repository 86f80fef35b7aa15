# boolean_mask_update cases: [4M, 8] f32 with a 1-D mask at densities 0.01, 0.5, 0.99
# and [2^26] f32 at 0.5, out of place and in place, CPU and CUDA.
if(COMMAND tensorbuf_add_bench_cases)
  tensorbuf_add_bench_cases(bench_boolean_mask_update.cpp sweep_boolean_mask_update.cpp)
endif()
