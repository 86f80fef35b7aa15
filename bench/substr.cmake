# substr cases: 4M short strings and 64K 1 KiB strings, scalar and per-element pos/len, byte
# and UTF-8 units (CPU and CUDA).
tensorbuf_add_bench_cases(bench_substr.cpp)
tensorbuf_add_bench_cases(sweep_substr.cpp)
