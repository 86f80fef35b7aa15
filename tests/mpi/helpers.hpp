// Helpers of the distributed tests: the world communicator, layouts, slicing the
// single-process reference into shards, and byte-for-byte comparison agreed by all ranks.
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "tensorbuf/dist.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf::dist::testing {

inline Comm world() { return Comm(MPI_COMM_WORLD); }

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
inline int world_size() {
  int s = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

// True on every rank iff `ok` is true on every rank.
inline bool all_ranks(bool ok) {
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

// Uneven row counts with rank 1 holding none (when there are >= 2 ranks): 5, 0, 3, 7, ...
inline RowLayout uneven_layout(int ranks) {
  static constexpr std::int64_t kRows[] = {5, 0, 3, 7, 2, 4};
  RowLayout layout;
  layout.offsets.push_back(0);
  for (int q = 0; q < ranks; ++q) layout.offsets.push_back(layout.offsets.back() + kRows[q % 6]);
  return layout;
}

// Rows [begin, end) of `full` (dim 0), as a new host buffer.
inline TensorBuffer rows_of(const TensorBuffer& full, std::int64_t begin, std::int64_t end) {
  std::vector<std::int64_t> dims = full.shape().dims();
  const std::int64_t row_elems = dims[0] == 0 ? 0 : full.flat_size() / dims[0];
  dims[0] = end - begin;
  TensorBuffer out = TensorBuffer::create_fixed_size(Shape(dims), full.data_type());
  const std::size_t row_bytes = static_cast<std::size_t>(row_elems) * full.type_size();
  if (out.size_bytes() != 0) {
    std::memcpy(out.overwrite_host_bytes(),
                static_cast<const unsigned char*>(full.host_bytes()) + begin * row_bytes,
                out.size_bytes());
  }
  return out;
}

// This rank's shard of `full` under `layout`.
inline TensorBuffer shard_of(const TensorBuffer& full, const RowLayout& layout, int rank) {
  return rows_of(full, layout.offsets[rank], layout.offsets[rank + 1]);
}

// `parts` concatenated along dim 0.
inline TensorBuffer concat(const std::vector<TensorBuffer>& parts) {
  std::vector<std::int64_t> dims = parts.front().shape().dims();
  dims[0] = 0;
  for (const TensorBuffer& p : parts) dims[0] += p.shape()[0];
  TensorBuffer out = TensorBuffer::create_fixed_size(Shape(dims), parts.front().data_type());
  auto* dst = static_cast<unsigned char*>(out.size_bytes() ? out.overwrite_host_bytes() : nullptr);
  for (const TensorBuffer& p : parts) {
    if (p.size_bytes() == 0) continue;
    std::memcpy(dst, p.host_bytes(), p.size_bytes());
    dst += p.size_bytes();
  }
  return out;
}

inline bool same_bytes(const TensorBuffer& a, const TensorBuffer& b) {
  return a.data_type() == b.data_type() && a.shape() == b.shape() &&
         (a.size_bytes() == 0 || std::memcmp(a.host_bytes(), b.host_bytes(), a.size_bytes()) == 0);
}

// A buffer of `shape` filled from `values` (converted from double by the element type).
template <class T>
TensorBuffer make(const Shape& shape, const std::vector<T>& values) {
  TensorBuffer out = TensorBuffer::create_fixed_size(shape, DataTypeOf<T>::value);
  if (!values.empty()) std::memcpy(out.overwrite_host_bytes(), values.data(), out.size_bytes());
  return out;
}

// The message of the tensorbuf error `f` throws ("(no error)" if none); `code` gets its class.
template <class F>
std::string error_of(F&& f, ErrorCode* code = nullptr) {
  try {
    f();
  } catch (const Error& e) {
    if (code != nullptr) *code = e.code();
    return e.what();
  }
  return "(no error)";
}

// True on every rank iff every rank's `text` equals rank 0's.
inline bool same_on_all_ranks(const std::string& text) {
  std::string root = text;
  int size = static_cast<int>(root.size());
  MPI_Bcast(&size, 1, MPI_INT, 0, MPI_COMM_WORLD);
  root.resize(static_cast<std::size_t>(size));
  MPI_Bcast(root.data(), size, MPI_CHAR, 0, MPI_COMM_WORLD);
  return all_ranks(root == text);
}

// Sets TENSORBUF_MPI_CUDA_AWARE for one scope, then restores what was there.
class ScopedCudaAwareVariable {
 public:
  explicit ScopedCudaAwareVariable(const char* value) {
    if (const char* old = std::getenv(kName)) old_ = old;
    if (value != nullptr) {
      setenv(kName, value, 1);
    } else {
      unsetenv(kName);
    }
  }
  ~ScopedCudaAwareVariable() {
    if (old_) {
      setenv(kName, old_->c_str(), 1);
    } else {
      unsetenv(kName);
    }
  }
  ScopedCudaAwareVariable(const ScopedCudaAwareVariable&) = delete;
  ScopedCudaAwareVariable& operator=(const ScopedCudaAwareVariable&) = delete;

 private:
  static constexpr const char* kName = "TENSORBUF_MPI_CUDA_AWARE";
  std::optional<std::string> old_;
};

}  // namespace tensorbuf::dist::testing
