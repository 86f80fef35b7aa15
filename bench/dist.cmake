# tensorbuf_bench_dist: the distributed scatter against MPI_Alltoallv of the same bytes
# (docs/distributed.md, "Cost model"); an MPI program of its own: mpiexec -n P tensorbuf_bench_dist.
if(TENSORBUF_WITH_MPI)
  add_executable(tensorbuf_bench_dist ${CMAKE_CURRENT_LIST_DIR}/bench_dist.cpp)
  target_link_libraries(tensorbuf_bench_dist PRIVATE tensorbuf_mpi_for_tests tensorbuf_warnings)
  # mpi/scatter_phases.hpp: the op's phase breakdown (internal, like the tests' hooks).
  target_include_directories(tensorbuf_bench_dist PRIVATE ${PROJECT_SOURCE_DIR}/src)
  # The distributed gather_nd (the embedding lookup) against its two MPI_Alltoallv alone.
  add_executable(tensorbuf_bench_dist_gather ${CMAKE_CURRENT_LIST_DIR}/bench_dist_gather.cpp)
  target_link_libraries(tensorbuf_bench_dist_gather PRIVATE tensorbuf_mpi tensorbuf_warnings)
endif()
