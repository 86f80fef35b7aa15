# scatter_elements (add), gather_elements and gather cases: [64K, 64] f32 with [64K, 64] int64
# indices, and 1M rows of [1M, 64] f32, CPU and CUDA.
if(COMMAND tensorbuf_add_bench_cases)
  tensorbuf_add_bench_cases(bench_elements.cpp)
  tensorbuf_add_bench_cases(sweep_indexing.cpp)  # the size sweep's indexing forms
endif()
