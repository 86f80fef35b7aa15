# Interop cases: an in-place op on borrowed memory against the same op on owned memory.
tensorbuf_add_bench_cases(bench_interop.cpp)
