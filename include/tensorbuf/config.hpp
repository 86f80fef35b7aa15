// Build-wide macros of the public headers.
#pragma once

// Marks functions that are callable from host code and, under nvcc, from device code: the
// scalar types in half.hpp, and inside the library every kernel function and functor. No CUDA
// header is ever included here.
#if defined(__CUDACC__)
#define TENSORBUF_HOST_DEVICE __host__ __device__
#else
#define TENSORBUF_HOST_DEVICE
#endif
