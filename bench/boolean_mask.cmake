# boolean_mask cases: [4M, 8] f32 and [2^26] f32 with a 1-D mask at density 0.5, CPU and CUDA.
if(COMMAND tensorbuf_add_bench_cases)
  tensorbuf_add_bench_cases(bench_boolean_mask.cpp)
endif()

# One-process A/B of the CPU backend's tunings (bench/ab_boolean_mask.cpp).
if(TARGET tensorbuf_bench_cases)
  add_executable(tensorbuf_ab_boolean_mask ${CMAKE_CURRENT_LIST_DIR}/ab_boolean_mask.cpp)
  target_link_libraries(tensorbuf_ab_boolean_mask PRIVATE tensorbuf_for_tests tensorbuf_internal
                        benchmark::benchmark tensorbuf_warnings)
  target_include_directories(tensorbuf_ab_boolean_mask PRIVATE ${CMAKE_CURRENT_LIST_DIR})
endif()
