// A small persistent thread pool for the CPU work of the library (conversions, CPU backend).
#pragma once

#include <cstdint>
#include <functional>

namespace tensorbuf::core {

// Threads the CPU work may use: TENSORBUF_NUM_THREADS if set (>= 1), else the hardware
// concurrency.
int cpu_thread_count();

// Runs body(chunk, begin, end) over [0, n) cut into at most cpu_thread_count() contiguous
// chunks of at least `min_chunk` elements, chunk c covering a range before chunk c+1's. The
// calling thread and the pool's workers claim chunks one at a time (the caller runs every chunk
// no worker claimed in time; a caller that finds the pool busy with another caller's job runs
// them all). Returns after all chunks finished; rethrows the first exception a chunk threw.
// Nested calls run serially.
void parallel_for_chunks(
    std::int64_t n, std::int64_t min_chunk,
    const std::function<void(int chunk, std::int64_t begin, std::int64_t end)>& body);

// The number of chunks parallel_for_chunks would use for (n, min_chunk).
int chunk_count(std::int64_t n, std::int64_t min_chunk);

// Convenience: body(begin, end) over contiguous ranges.
template <class Body>
void parallel_for(std::int64_t n, std::int64_t min_chunk, Body&& body) {
  parallel_for_chunks(n, min_chunk,
                      [&](int, std::int64_t begin, std::int64_t end) { body(begin, end); });
}

}  // namespace tensorbuf::core
