// A small persistent thread pool for the CPU work of the library (conversions, CPU backend).
#pragma once

#include <cstdint>

namespace tensorbuf::core {

// Threads the CPU work may use: TENSORBUF_NUM_THREADS if set (>= 1), else the hardware
// concurrency.
int cpu_thread_count();

// Runs body(chunk, begin, end) over [0, n) cut into at most cpu_thread_count() contiguous
// chunks of at least `min_chunk` elements, chunk c covering a range before chunk c+1's. The
// calling thread and the pool's workers claim chunks one at a time (the caller runs every chunk
// no worker claimed in time; a caller that finds the pool busy with another caller's job runs
// them all). Returns after all chunks finished; rethrows the first exception a chunk threw.
// Nested calls run serially. One chunk runs inline: no allocation, no pool.
template <class Body>
void parallel_for_chunks(std::int64_t n, std::int64_t min_chunk, const Body& body);

// The number of chunks parallel_for_chunks would use for (n, min_chunk).
int chunk_count(std::int64_t n, std::int64_t min_chunk);

namespace detail {
using ChunkFunction = void (*)(const void* body, int chunk, std::int64_t begin, std::int64_t end);
bool inside_parallel();
void run_chunks(std::int64_t n, int chunks, ChunkFunction function, const void* body);
// Jobs whose caller waited for a worker that was not running (the pool then ran the next jobs
// inline for a while): for tests and diagnosis.
std::int64_t stalled_jobs();
}  // namespace detail

template <class Body>
void parallel_for_chunks(std::int64_t n, std::int64_t min_chunk, const Body& body) {
  const int chunks = chunk_count(n, min_chunk);
  if (chunks == 0) return;
  if (chunks == 1 || detail::inside_parallel()) {
    body(0, std::int64_t{0}, n);
    return;
  }
  detail::run_chunks(
      n, chunks,
      [](const void* b, int chunk, std::int64_t begin, std::int64_t end) {
        (*static_cast<const Body*>(b))(chunk, begin, end);
      },
      &body);
}

// The pool's one policy, for every op (docs/internals.md, "CPU threads"): threads only for work
// that is worth waking them, judged from the op's estimated serial cost in nanoseconds.
//  - kMinThreadWorkNs: the least work a thread (a chunk) gets. A parallel region costs the
//    caller ~0.3 us when the workers are polling and ~2.3 us when they sleep (the caller then
//    runs the chunks itself); 10 us per chunk keeps that under a quarter even when they sleep.
//  - kRegionNs: what one region adds to the estimate when threads are compared with one.
//  - kMinGain: threads only when the estimate drops by a fifth at least against one thread;
//    estimates are rough, and a close call is better served by one predictable thread.
inline constexpr double kMinThreadWorkNs = 10000;
inline constexpr double kRegionNs = 3000;
inline constexpr double kMinGain = 0.8;

// Threads for work that takes `serial_ns` on one thread, or, on t > 1 threads,
// shared_ns / t + per_thread_ns + kRegionNs (per_thread_ns: what every thread pays in full,
// e.g. a scan each one makes). A thread is added while each still gets kMinThreadWorkNs of the
// shared work and the estimate improves; more than one only below kMinGain x serial_ns.
int threads_for_work(double serial_ns, double shared_ns, double per_thread_ns = 0);

// min_chunk for parallel_for_chunks over items of about `ns_per_item` each on one thread:
// chunks of at least kMinThreadWorkNs.
std::int64_t min_chunk_for(double ns_per_item);

// Convenience: body(begin, end) over contiguous ranges.
template <class Body>
void parallel_for(std::int64_t n, std::int64_t min_chunk, Body&& body) {
  parallel_for_chunks(n, min_chunk,
                      [&](int, std::int64_t begin, std::int64_t end) { body(begin, end); });
}

}  // namespace tensorbuf::core
