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

// Polls `done` for up to spin_before_sleep(); true when it held.
template <class Done>
bool spin_until(Done&& done) {
  if (spin_before_sleep().count() == 0) return done();
  const auto deadline = std::chrono::steady_clock::now() + spin_before_sleep();
  for (int i = 1;; ++i) {
    if (done()) return true;
    cpu_relax();
    if (i % 64 == 0 && std::chrono::steady_clock::now() >= deadline) return false;
  }
}

// Each job is one call of parallel_for_chunks. Workers poll for the next job for a short while
// after each one (spin_before_sleep()), then sleep on a condition variable.
class ThreadPool {
 public:
  explicit ThreadPool(int workers) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this, i] { work(i + 1); });
  }
  ~ThreadPool() {
    {
      std::lock_guard lock(mutex_);
      stopping_.store(true, std::memory_order_release);
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  // Runs task(c) for c in [0, chunks); chunk 0 on the caller.
  void run(int chunks, const std::function<void(int)>& task) {
    std::lock_guard job_lock(job_mutex_);  // one job at a time
    {
      std::lock_guard lock(mutex_);
      task_ = &task;
      chunks_ = chunks;
      pending_.store(chunks - 1, std::memory_order_relaxed);
      error_ = nullptr;
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    run_chunk(0);
    if (!spin_until([this] { return pending_.load(std::memory_order_acquire) == 0; })) {
      std::unique_lock lock(mutex_);
      done_.wait(lock, [this] { return pending_.load(std::memory_order_relaxed) == 0; });
    }
    std::lock_guard lock(mutex_);
    task_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void run_chunk(int chunk) {
    t_inside_parallel = true;
    try {
      (*task_)(chunk);
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
    t_inside_parallel = false;
  }

  void work(int chunk) {
    std::uint64_t seen = 0;
    for (;;) {
      auto has_news = [&] {
        return stopping_.load(std::memory_order_acquire) ||
               generation_.load(std::memory_order_acquire) != seen;
      };
      if (!spin_until(has_news)) {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, has_news);
      }
      {
        std::lock_guard lock(mutex_);
        if (stopping_.load(std::memory_order_relaxed)) return;
        seen = generation_.load(std::memory_order_relaxed);
        if (chunk >= chunks_) continue;
      }
      run_chunk(chunk);
      std::lock_guard lock(mutex_);
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) done_.notify_one();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex job_mutex_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(int)>* task_ = nullptr;
  int chunks_ = 0;
  // Written under mutex_; also polled without it.
  std::atomic<int> pending_{0};
  std::atomic<std::uint64_t> generation_{0};
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

void parallel_for_chunks(std::int64_t n, std::int64_t min_chunk,
                         const std::function<void(int, std::int64_t, std::int64_t)>& body) {
  const int chunks =
      t_inside_parallel ? std::min(chunk_count(n, min_chunk), 1) : chunk_count(n, min_chunk);
  if (chunks == 0) return;
  auto range = [&](int c) {
    const std::int64_t begin = n / chunks * c + std::min<std::int64_t>(c, n % chunks);
    const std::int64_t end = begin + n / chunks + (c < n % chunks ? 1 : 0);
    body(c, begin, end);
  };
  if (chunks == 1) {
    range(0);
    return;
  }
  pool().run(chunks, range);
}

}  // namespace tensorbuf::core
