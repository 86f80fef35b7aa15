#include "core/parallel.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace tensorbuf::core {
namespace {

thread_local bool t_inside_parallel = false;

// Workers sleep on a condition variable; each job is one call of parallel_for_chunks.
class ThreadPool {
 public:
  explicit ThreadPool(int workers) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this, i] { work(i + 1); });
  }
  ~ThreadPool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
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
      pending_ = chunks - 1;
      error_ = nullptr;
      ++generation_;
    }
    wake_.notify_all();
    run_chunk(0);
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
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
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
        if (stopping_) return;
        seen = generation_;
        if (chunk >= chunks_) continue;
      }
      run_chunk(chunk);
      std::lock_guard lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex job_mutex_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(int)>* task_ = nullptr;
  int chunks_ = 0;
  int pending_ = 0;
  std::uint64_t generation_ = 0;
  bool stopping_ = false;
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
  const int chunks = t_inside_parallel ? std::min(chunk_count(n, min_chunk), 1)
                                       : chunk_count(n, min_chunk);
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
