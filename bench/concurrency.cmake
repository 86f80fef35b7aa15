# Concurrent callers: 1, 2, 4 and 8 threads each running mask-update +
# scatter-add call pairs on the CPU.
tensorbuf_add_bench_cases(bench_concurrency.cpp)
