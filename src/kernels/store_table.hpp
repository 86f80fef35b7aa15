// Host values written into executor memory by kernels, 32 a launch (the values travel in the
// functor): no host-to-device copy, so a CUDA graph can capture it and the host array may be
// freed as soon as this returns. For the small parameter tables of the processing ops.
#pragma once

#include <cstdint>

#include "kernels/config.hpp"

namespace tensorbuf::kernels {

template <class T>
struct StoreTableFunctor {
  static constexpr int kValues = 32;
  T* target;
  T values[kValues];
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t i) const { target[i] = values[i]; }
};

// A new executor-side array holding host[0 .. count).
template <class T, class Executor>
T* store_table(Executor& ex, const T* host, std::int64_t count) {
  T* table = ex.template scratch<T>(count);
  constexpr int k = StoreTableFunctor<T>::kValues;
  for (std::int64_t begin = 0; begin < count; begin += k) {
    StoreTableFunctor<T> store{table + begin, {}};
    const std::int64_t n = count - begin < k ? count - begin : k;
    for (std::int64_t j = 0; j < n; ++j) store.values[j] = host[begin + j];
    ex.for_each_index(n, store);
  }
  return table;
}

}  // namespace tensorbuf::kernels
