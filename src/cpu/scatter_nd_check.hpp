// The CPU scatter's kError check of the rows before an in-place write: the first bad row, or
// -1. Depth 1, the common case, takes the largest index as unsigned (a negative one is huge)
// over the rows and compares it once with the bound; only a range that holds a bad row is
// searched again. The maximum vectorises: 8 rows per instruction with AVX-512 (vpmaxuq), one
// with the portable twin (SSE2 has no unsigned 64-bit compare).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/isa.hpp"
#include "core/parallel.hpp"
#include "core/scatter_nd_plan.hpp"
#include "cpu/cpu_features.hpp"
#include "kernels/scatter_nd_combine.hpp"

namespace tensorbuf::cpu::scatter_check {

// Checking one index component on one core, portable path (tensorbuf bench --sweep).
inline constexpr double kCheckNsPerComponent = 0.3;

template <class Index>
std::uint64_t largest_index(const Index* indices, std::int64_t n) {
  std::uint64_t largest = 0;
  for (std::int64_t r = 0; r < n; ++r) {
    largest = std::max(largest, static_cast<std::uint64_t>(static_cast<std::int64_t>(indices[r])));
  }
  return largest;
}

#if defined(TENSORBUF_ISA_X86_64)
template <class Index>
__attribute__((target("avx512f"))) std::uint64_t largest_index_avx512(const Index* indices,
                                                                      std::int64_t n) {
  std::uint64_t largest = 0;
  for (std::int64_t r = 0; r < n; ++r) {
    largest = std::max(largest, static_cast<std::uint64_t>(static_cast<std::int64_t>(indices[r])));
  }
  return largest;
}
#endif

template <class Index>
std::int64_t first_bad_row(const core::ScatterNdPlan& plan,
                           const kernels::ScatterGeometry& geometry, const Index* indices,
                           std::int64_t begin, std::int64_t end, bool simd) {
  if (plan.depth == 1) {
    const auto bound = static_cast<std::uint64_t>(geometry.dims[0]);
    std::uint64_t largest = 0;
#if defined(TENSORBUF_ISA_X86_64)
    largest = simd ? largest_index_avx512(indices + begin, end - begin)
                   : largest_index(indices + begin, end - begin);
#else
    (void)simd;
    largest = largest_index(indices + begin, end - begin);
#endif
    if (largest < bound) return -1;
    for (std::int64_t r = begin; r < end; ++r) {
      if (static_cast<std::uint64_t>(static_cast<std::int64_t>(indices[r])) >= bound) return r;
    }
    return -1;
  }
  for (std::int64_t row = begin; row < end; ++row) {
    std::int64_t slice = 0;
    if (!geometry.slice_of(indices + row * plan.depth, &slice)) return row;
  }
  return -1;
}

// Row chunks in parallel when the check is large enough; the smallest bad row wins.
template <class Index>
std::int64_t check_rows(const core::ScatterNdPlan& plan, const kernels::ScatterGeometry& geometry,
                        const Index* indices) {
  const bool simd = cpu_features().code_paths().scatter_avx512;
  const std::int64_t n = plan.num_rows;
  // Most calls: below two threads' worth of work, without the chunking arithmetic.
  const double check_ns = kCheckNsPerComponent * static_cast<double>(plan.depth * n);
  if (check_ns < 2 * core::kMinThreadWorkNs)
    return first_bad_row(plan, geometry, indices, 0, n, simd);
  const std::int64_t min_rows = core::min_chunk_for(kCheckNsPerComponent * plan.depth);
  const int chunks = core::chunk_count(n, min_rows);
  if (chunks <= 1) return first_bad_row(plan, geometry, indices, 0, n, simd);
  std::vector<std::int64_t> first_bad(static_cast<std::size_t>(chunks), -1);
  core::parallel_for_chunks(n, min_rows, [&](int c, std::int64_t begin, std::int64_t end) {
    first_bad[static_cast<std::size_t>(c)] =
        first_bad_row(plan, geometry, indices, begin, end, simd);
  });
  for (const std::int64_t row : first_bad) {
    if (row >= 0) return row;  // chunks are in row order
  }
  return -1;
}

}  // namespace tensorbuf::cpu::scatter_check
