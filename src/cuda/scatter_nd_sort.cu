// The stable sort of the scatter ops' deterministic path (CUB radix sort, compiled once).
#include "cuda/scatter_nd.cuh"

namespace tensorbuf::cuda {

void sort_rows_by_slice(CudaExecutor& executor, std::uint32_t* keys, std::int64_t* rows,
                        std::int64_t n) {
  executor.sort_by_key(keys, rows, n);
}

void sort_rows_by_slice(CudaExecutor& executor, std::uint64_t* keys, std::int64_t* rows,
                        std::int64_t n) {
  executor.sort_by_key(keys, rows, n);
}

}  // namespace tensorbuf::cuda
