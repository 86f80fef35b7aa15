# Processor cases: uint8 [1080, 1920, 3] and [224, 224, 3] -> per-channel normalize -> float32
# (and -> float16), beside a memcpy of the same traffic and the unfused single ops, CPU.
if(COMMAND tensorbuf_add_bench_cases)
  tensorbuf_add_bench_cases(bench_processing.cpp)
  tensorbuf_add_bench_cases(sweep_processing.cpp)  # the size sweep's Processor forms
endif()
