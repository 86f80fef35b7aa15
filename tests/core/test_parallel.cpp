// core::parallel_for_chunks, the CPU backends' thread pool: chunk ranges, exceptions, nested
// calls, many back-to-back jobs with and without gaps longer than the workers' polling (a
// lost wake-up would hang here), concurrent callers, and the backoff after stalled workers (the
// pool, and StallBackoff's rule on its own).
// ctest runs it twice: polling (default) and TENSORBUF_SPIN_US=0.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "core/parallel.hpp"
#include "core/stall_backoff.hpp"

namespace tensorbuf::core {
namespace {

TEST(ParallelFor, ChunksCoverTheRangeOnceInOrder) {
  for (std::int64_t n :
       {std::int64_t{1}, std::int64_t{7}, std::int64_t{1000}, std::int64_t{1} << 20}) {
    for (std::int64_t min_chunk : {std::int64_t{1}, std::int64_t{64}, std::int64_t{1} << 14}) {
      SCOPED_TRACE(::testing::Message() << "n " << n << " min_chunk " << min_chunk);
      const int chunks = chunk_count(n, min_chunk);
      ASSERT_GE(chunks, 1);
      ASSERT_LE(chunks, cpu_thread_count());
      std::unique_ptr<std::atomic<int>[]> hits(new std::atomic<int>[static_cast<std::size_t>(n)]);
      for (std::int64_t i = 0; i < n; ++i) hits[static_cast<std::size_t>(i)] = 0;
      std::vector<std::pair<std::int64_t, std::int64_t>> ranges(static_cast<std::size_t>(chunks),
                                                                {-1, -1});
      parallel_for_chunks(n, min_chunk, [&](int c, std::int64_t b, std::int64_t e) {
        ranges[static_cast<std::size_t>(c)] = {b, e};
        for (std::int64_t i = b; i < e; ++i) hits[static_cast<std::size_t>(i)]++;
      });
      std::int64_t next = 0;
      for (const auto& [b, e] : ranges) {
        EXPECT_EQ(b, next);
        EXPECT_GE(e - b, std::min(n, min_chunk));
        next = e;
      }
      EXPECT_EQ(next, n);
      for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(hits[static_cast<std::size_t>(i)], 1) << i;
    }
  }
}

TEST(ParallelFor, EmptyRangeRunsNothing) {
  int calls = 0;
  parallel_for_chunks(0, 1, [&](int, std::int64_t, std::int64_t) { ++calls; });
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(chunk_count(0, 1), 0);
}

TEST(ParallelFor, RethrowsAChunksExceptionAndStaysUsable) {
  const int last = chunk_count(1 << 20, 1) - 1;  // a worker's chunk when there are several
  EXPECT_THROW(parallel_for_chunks(1 << 20, 1,
                                   [&](int c, std::int64_t, std::int64_t) {
                                     if (c == last) throw std::runtime_error("chunk failed");
                                   }),
               std::runtime_error);
  std::atomic<std::int64_t> sum{0};
  parallel_for_chunks(1000, 1, [&](int, std::int64_t b, std::int64_t e) { sum += e - b; });
  EXPECT_EQ(sum, 1000);
}

TEST(ParallelFor, NestedCallsRunSerially) {
  std::atomic<int> inner_chunks{0};
  std::atomic<std::int64_t> inner_elements{0};
  parallel_for_chunks(1 << 16, 1, [&](int, std::int64_t, std::int64_t) {
    parallel_for_chunks(1 << 16, 1, [&](int c, std::int64_t b, std::int64_t e) {
      EXPECT_EQ(c, 0);
      inner_chunks++;
      inner_elements += e - b;
    });
  });
  const int outer = chunk_count(1 << 16, 1);
  EXPECT_EQ(inner_chunks, outer);
  EXPECT_EQ(inner_elements, std::int64_t{outer} << 16);
}

TEST(ParallelFor, ManyBackToBackJobsAllFinish) {
  // Gaps of 0 (workers still polling) and of 1 ms (workers asleep) between jobs.
  const int chunks = chunk_count(1 << 20, 1);
  for (int job = 0; job < 20000; ++job) {
    std::atomic<int> ran{0};
    parallel_for_chunks(1 << 20, 1, [&](int, std::int64_t, std::int64_t) { ran++; });
    ASSERT_EQ(ran, chunks) << "job " << job;
    if (job % 2000 == 1999) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// The one policy: threads only for work worth waking them (docs/internals.md, "CPU threads").
TEST(ParallelPolicy, ThreadsOnlyForWorkWorthWakingThem) {
  EXPECT_EQ(threads_for_work(0, 0), 1);
  EXPECT_EQ(threads_for_work(15000, 15000), 1);   // 7.5 us per thread: below kMinThreadWorkNs
  EXPECT_EQ(threads_for_work(1e6, 1e6, 1e6), 1);  // what every thread pays eats the gain
  // 2 threads: 10 us of shared work each + the per-thread part + 3 us of region: 15.9 us is a
  // fifth below 20 us, 16.1 us is not.
  EXPECT_EQ(threads_for_work(20000, 20000, 2900), std::min(cpu_thread_count(), 2));
  EXPECT_EQ(threads_for_work(20000, 20000, 3100), 1);
  // 1 ms: threads while each gets 10 us; 1 s: every thread.
  EXPECT_EQ(threads_for_work(1e6, 1e6), std::min(cpu_thread_count(), 100));
  EXPECT_EQ(threads_for_work(1e9, 1e9), cpu_thread_count());
  EXPECT_EQ(min_chunk_for(1.0), 10000);
  EXPECT_EQ(min_chunk_for(0.5), 20000);
  EXPECT_EQ(min_chunk_for(1e9), 1);
}

// Several threads calling at once (an inference server's request threads): one of them holds the
// pool, the others run their chunks themselves; every job still sees each of its chunks once,
// with the same ranges as alone.
TEST(ParallelFor, ConcurrentCallersEachRunEveryChunkOnce) {
  constexpr std::int64_t kN = std::int64_t{1} << 16;
  const int chunks = chunk_count(kN, 1);
  std::atomic<int> failures{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&, t] {
      for (int job = 0; job < 3000; ++job) {
        std::vector<std::int64_t> ends(static_cast<std::size_t>(chunks), -1);
        std::atomic<std::int64_t> covered{0};
        parallel_for_chunks(kN, 1, [&](int c, std::int64_t b, std::int64_t e) {
          ends[static_cast<std::size_t>(c)] = e;
          covered += e - b;
        });
        if (covered != kN || ends.back() != kN) failures++;
        if (job % 500 == 499 && t == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
  }
  for (std::thread& c : callers) c.join();
  EXPECT_EQ(failures, 0);
}

// A worker that claims a chunk and then does not run (here: sleeps 50 ms; on a busy machine:
// preempted by another process) makes the caller wait; the pool notices, and when it happens
// again it runs the next jobs on the caller alone for a while, then uses its workers again.
TEST(ParallelFor, AStalledWorkerSendsTheNextJobsInlineForAWhile) {
  if (cpu_thread_count() < 2) GTEST_SKIP() << "one CPU thread: the pool has no workers";
  using std::chrono::milliseconds;
  const std::thread::id caller = std::this_thread::get_id();
  // The caller's chunk waits until a worker has claimed the other one (or 1 s passed), so the
  // job really depends on the worker.
  auto job = [&](milliseconds worker_sleep) {
    std::atomic<bool> worker_started{false};
    parallel_for_chunks(2, 1, [&](int, std::int64_t, std::int64_t) {
      if (std::this_thread::get_id() == caller) {
        const auto give_up = std::chrono::steady_clock::now() + milliseconds(1000);
        while (!worker_started && std::chrono::steady_clock::now() < give_up) {
          std::this_thread::yield();
        }
      } else {
        worker_started = true;
        std::this_thread::sleep_for(worker_sleep);
      }
    });
    return worker_started.load();
  };
  // Two stalls in a row: the second repeats the first, which alone would not back off.
  const std::int64_t before = detail::stalled_jobs();
  for (int attempt = 0; attempt < 10 && detail::stalled_jobs() < before + 2; ++attempt) {
    job(milliseconds(50));
  }
  ASSERT_GE(detail::stalled_jobs(), before + 2) << "50 ms worker chunks were not seen as stalls";

  // Right after it: both chunks on the caller, which finds no worker to wait for.
  std::vector<std::thread::id> ran_on(2);
  parallel_for_chunks(2, 1, [&](int c, std::int64_t, std::int64_t) {
    ran_on[static_cast<std::size_t>(c)] = std::this_thread::get_id();
  });
  EXPECT_EQ(ran_on[0], caller);
  EXPECT_EQ(ran_on[1], caller);

  // After the backoff (at most 1 s) the workers take chunks again.
  std::this_thread::sleep_for(milliseconds(1100));
  bool worker_ran = false;
  for (int attempt = 0; attempt < 5 && !worker_ran; ++attempt) worker_ran = job(milliseconds(0));
  EXPECT_TRUE(worker_ran);
}

// StallBackoff's rule, on made-up job histories: a stall backs off only when it repeats within
// kRepeatJobs jobs; repeated stalls double the backoff up to kMax; a clean job starts it over.
TEST(StallBackoff, AnIsolatedStallRunsNothingInline) {
  StallBackoff backoff;
  const auto t = StallBackoff::Clock::now();
  backoff.record(true, t);
  EXPECT_FALSE(backoff.inline_at(t));
  // After more than kRepeatJobs clean jobs a stall is isolated again.
  for (std::int64_t j = 0; j < StallBackoff::kRepeatJobs + 1; ++j) backoff.record(false, t);
  backoff.record(true, t);
  EXPECT_FALSE(backoff.inline_at(t));
}

TEST(StallBackoff, ARepeatedStallRunsJobsInlineForTwentyMilliseconds) {
  using std::chrono::milliseconds;
  StallBackoff backoff;
  const auto t = StallBackoff::Clock::now();
  backoff.record(true, t);
  for (std::int64_t j = 0; j < StallBackoff::kRepeatJobs; ++j) backoff.record(false, t);
  backoff.record(true, t);  // kRepeatJobs clean jobs after the first stall: still a repeat
  EXPECT_TRUE(backoff.inline_at(t));
  EXPECT_TRUE(backoff.inline_at(t + milliseconds(20) - std::chrono::microseconds(1)));
  EXPECT_FALSE(backoff.inline_at(t + milliseconds(20)));
}

TEST(StallBackoff, StallsInARowDoubleTheBackoffUpToOneSecondAndACleanJobResetsIt) {
  using std::chrono::milliseconds;
  StallBackoff backoff;
  auto t = StallBackoff::Clock::now();
  backoff.record(true, t);
  for (const int expected_ms : {20, 40, 80, 160, 320, 640, 1000, 1000}) {
    t += milliseconds(5000);  // each stall comes at the first job after the previous backoff
    backoff.record(true, t);
    EXPECT_TRUE(backoff.inline_at(t + milliseconds(expected_ms) - std::chrono::microseconds(1)))
        << expected_ms;
    EXPECT_FALSE(backoff.inline_at(t + milliseconds(expected_ms))) << expected_ms;
  }
  t += milliseconds(5000);
  backoff.record(false, t);
  backoff.record(true, t);  // repeated (one job since the last stall), but the chain was broken
  EXPECT_TRUE(backoff.inline_at(t + milliseconds(19)));
  EXPECT_FALSE(backoff.inline_at(t + milliseconds(20)));
}

}  // namespace
}  // namespace tensorbuf::core
