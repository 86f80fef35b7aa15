#include "core/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "core/isa.hpp"
#include "core/stall_backoff.hpp"

namespace tensorbuf::core {
namespace {

thread_local bool t_inside_parallel = false;

// How long a worker polls for the next job, and the caller for the end of its job, before
// sleeping on a condition variable: TENSORBUF_SPIN_US if set (0: sleep at once), else 200 us.
// Waking a sleeping thread costs a few us when its core is busy, but far more on a virtual
// machine whose idle vCPU was halted (docs/internals.md, "CPU threads") -- once per parallel
// region, and an op runs two or three of them back to back.
std::chrono::microseconds spin_before_sleep() {
  static const std::chrono::microseconds spin = [] {
    if (const char* env = std::getenv("TENSORBUF_SPIN_US")) {
      return std::chrono::microseconds(std::max(0L, std::atol(env)));
    }
    return std::chrono::microseconds(200);
  }();
  return spin;
}

inline void cpu_relax() {
#if defined(TENSORBUF_ISA_X86_PAUSE)
  __builtin_ia32_pause();
#elif defined(TENSORBUF_ISA_ARM64_YIELD)
  __asm__ __volatile__("yield" ::: "memory");
#endif
}

// Polls `done` for up to spin_before_sleep(); true when it held. Every 64 polls it also yields
// the core: when the thread it waits for shares this core (the scheduler put both on one vCPU,
// or the other core is busy), polling without yielding would keep that thread from running
// for the whole polling time: every call of such a process took ~430 us instead of ~10 us
// (docs/internals.md, "The 430 us mode").
template <class Done>
bool spin_until(Done&& done) {
  if (spin_before_sleep().count() == 0) return done();
  const auto deadline = std::chrono::steady_clock::now() + spin_before_sleep();
  for (int i = 1;; ++i) {
    if (done()) return true;
    cpu_relax();
    if (i % 64 == 0) {
      if (std::chrono::steady_clock::now() >= deadline) return false;
      std::this_thread::yield();
    }
  }
}

// One call of parallel_for_chunks: chunk c of `chunks` covers its share of [0, n).
struct Job {
  std::int64_t n = 0;
  int chunks = 0;
  detail::ChunkFunction function = nullptr;
  const void* body = nullptr;

  void run(int c) const {
    const std::int64_t begin = n / chunks * c + std::min<std::int64_t>(c, n % chunks);
    const std::int64_t end = begin + n / chunks + (c < n % chunks ? 1 : 0);
    function(body, c, begin, end);
  }
};

// A worker that claimed a chunk and then lost its core to another process makes the caller wait
// a scheduler time slice, ~3.5 ms here, for work of maybe 0.1 ms: 2^18-row scatter calls took
// 3.4-3.7 ms for whole processes while other builds ran. The caller measures its
// wait for the workers' chunks; a wait of over kStallWait and twice its own chunks' time means a
// worker was not running (a stall), and StallBackoff decides when the next jobs run inline.
// Results never depend on the thread count, only the time does.
constexpr std::chrono::microseconds kStallWait{1000};

// Each job is one call of parallel_for_chunks. Its chunks are claimed one at a time, by the
// caller and by the workers alike, so the caller never waits for a worker that has not started
// (asleep, or not scheduled): it runs the unclaimed chunks itself and waits only for chunks a
// worker is running. Workers poll for the next job for a short while after each one
// (spin_before_sleep()), then sleep on a condition variable. A caller that finds the pool busy
// with another caller's job runs its chunks itself, so concurrent callers do not queue; so
// does a caller while the pool backs off after a stalled worker (above).
class ThreadPool {
 public:
  explicit ThreadPool(int workers) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
  }
  ~ThreadPool() {
    {
      std::lock_guard lock(mutex_);
      stopping_.store(true, std::memory_order_release);
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  // Runs the chunks of `job` (job.chunks <= 65535).
  void run(const Job& job) {
    std::unique_lock job_lock(job_mutex_, std::try_to_lock);  // one job at a time
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    if (!job_lock.owns_lock() || backoff_.inline_at(start)) {
      run_inline(job);
      return;
    }
    const int chunks = job.chunks;
    {
      std::lock_guard lock(mutex_);
      job_ = job;
      error_ = nullptr;
      pending_.store(chunks, std::memory_order_relaxed);
      generation_ = (generation_ + 1) & 0xffffffffu;
      claim_.store(generation_ << 32 | static_cast<std::uint64_t>(chunks) << 16,
                   std::memory_order_release);
    }
    wake_.notify_all();
    run_claimed(generation_);
    const Clock::time_point own_end = Clock::now();
    if (!spin_until([this] { return pending_.load(std::memory_order_acquire) == 0; })) {
      // Acquire, not relaxed: the last worker counts its chunk before it takes mutex_ to
      // notify, so a 0 seen here may come before that lock; only the acquire load orders the
      // workers' reads of job_ before the next job's write (relaxed: a ThreadSanitizer race).
      std::unique_lock lock(mutex_);
      done_.wait(lock, [this] { return pending_.load(std::memory_order_acquire) == 0; });
    }
    const Clock::time_point end = Clock::now();
    const Clock::duration wait = end - own_end;
    const bool stalled = wait > kStallWait && wait > 2 * (own_end - start);
    if (stalled) stalls_.fetch_add(1, std::memory_order_relaxed);
    backoff_.record(stalled, end);
    std::lock_guard lock(mutex_);
    if (error_) std::rethrow_exception(error_);
  }

  std::int64_t stalls() const { return stalls_.load(std::memory_order_relaxed); }

 private:
  // claim_: generation (32 bits) | chunks (16 bits) | next unclaimed chunk (16 bits).
  static std::uint64_t generation_of(std::uint64_t claim) { return claim >> 32; }

  // Claims and runs chunks of job `generation` until none is left; false when that job is
  // over (or another one began) before this thread claimed anything.
  void run_claimed(std::uint64_t generation) {
    std::uint64_t claim = claim_.load(std::memory_order_acquire);
    for (;;) {
      const auto chunks = static_cast<int>((claim >> 16) & 0xffffu);
      const auto next = static_cast<int>(claim & 0xffffu);
      if (generation_of(claim) != generation || next >= chunks) return;
      if (!claim_.compare_exchange_weak(claim, claim + 1, std::memory_order_acq_rel,
                                        std::memory_order_acquire)) {
        continue;
      }
      run_chunk(next);  // the job cannot end before this chunk is counted below
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard lock(mutex_);
        done_.notify_one();
      }
      claim = claim_.load(std::memory_order_acquire);
    }
  }

  void run_chunk(int chunk) {
    t_inside_parallel = true;
    try {
      job_.run(chunk);
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
    t_inside_parallel = false;
  }

  static void run_inline(const Job& job) {
    std::exception_ptr error;
    t_inside_parallel = true;
    for (int c = 0; c < job.chunks; ++c) {
      try {
        job.run(c);
      } catch (...) {
        if (!error) error = std::current_exception();
      }
    }
    t_inside_parallel = false;
    if (error) std::rethrow_exception(error);
  }

  void work() {
    std::uint64_t seen = 0;
    for (;;) {
      auto has_news = [&] {
        return stopping_.load(std::memory_order_acquire) ||
               generation_of(claim_.load(std::memory_order_acquire)) != seen;
      };
      if (!spin_until(has_news)) {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, has_news);
      }
      if (stopping_.load(std::memory_order_acquire)) return;
      seen = generation_of(claim_.load(std::memory_order_acquire));
      run_claimed(seen);
    }
  }

  std::vector<std::thread> threads_;
  std::mutex job_mutex_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  Job job_;                       // set before claim_ publishes it
  std::uint64_t generation_ = 0;  // the caller's copy (under job_mutex_)
  StallBackoff backoff_;          // under job_mutex_
  // The stalls seen (for tests).
  std::atomic<std::int64_t> stalls_{0};
  std::atomic<std::uint64_t> claim_{0};
  std::atomic<int> pending_{0};  // chunks of the job not finished yet
  std::atomic<bool> stopping_{false};
  std::exception_ptr error_;
};

ThreadPool& pool() {
  static ThreadPool instance(cpu_thread_count() - 1);
  return instance;
}

}  // namespace

int cpu_thread_count() {
  static const int count = [] {
    if (const char* env = std::getenv("TENSORBUF_NUM_THREADS")) {
      const int n = std::atoi(env);
      if (n >= 1) return std::min(n, 256);
    }
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  }();
  return count;
}

int chunk_count(std::int64_t n, std::int64_t min_chunk) {
  if (n <= 0) return 0;
  const std::int64_t by_size = std::max<std::int64_t>(1, n / std::max<std::int64_t>(1, min_chunk));
  return static_cast<int>(std::min<std::int64_t>(cpu_thread_count(), by_size));
}

int threads_for_work(double serial_ns, double shared_ns, double per_thread_ns) {
  int best = 1;
  double best_ns = serial_ns;
  for (int t = 2; t <= cpu_thread_count(); ++t) {
    if (shared_ns / t < kMinThreadWorkNs) break;
    const double ns = shared_ns / t + per_thread_ns + kRegionNs;
    if (ns >= best_ns) break;
    best = t;
    best_ns = ns;
  }
  return best_ns <= kMinGain * serial_ns ? best : 1;
}

std::int64_t min_chunk_for(double ns_per_item) {
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(kMinThreadWorkNs / ns_per_item));
}

namespace detail {

bool inside_parallel() { return t_inside_parallel; }

void run_chunks(std::int64_t n, int chunks, ChunkFunction function, const void* body) {
  pool().run(Job{n, chunks, function, body});
}

std::int64_t stalled_jobs() { return pool().stalls(); }

}  // namespace detail

}  // namespace tensorbuf::core
