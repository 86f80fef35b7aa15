# tensor_scatter_nd_{sub,add,update,min,max}: spec vectors and rules on every device, NumPy
# vectors, the CUDA driver on the host executor, randomized comparison with a serial reference,
# and the CUDA backend on a GPU (ScatterNdCUDA, label cuda).
tensorbuf_add_test(test_scatter_nd SOURCES
  test_scatter_nd.cpp
  test_scatter_nd_numpy.cpp
  test_scatter_nd_drivers.cpp
  test_scatter_nd_random.cpp
  test_scatter_nd_cuda.cpp)
