// When the thread pool stops waiting for its workers (docs/internals.md, "Stalled workers"):
// a worker that claimed a chunk and then lost its core makes the caller wait a scheduler time
// slice for work of maybe 0.1 ms. After such a stall the pool runs the next jobs inline on their
// callers for a while -- but only when stalls repeat: an isolated one (a quiet virtual machine
// takes a vCPU away for a few ms now and then) costs one slow call, while 20 ms of inline jobs
// would make every call in them up to twice as slow (the op's p99 at 2^18-2^20).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace tensorbuf::core {

class StallBackoff {
 public:
  using Clock = std::chrono::steady_clock;

  // A stall starts a backoff when it comes within kRepeatJobs pool jobs of the previous one.
  static constexpr std::int64_t kRepeatJobs = 16;
  static constexpr std::chrono::milliseconds kFirst{20};
  static constexpr std::chrono::milliseconds kMax{1000};

  // True while jobs should run inline on their callers.
  bool inline_at(Clock::time_point now) const { return now < inline_until_; }

  // Records a job the workers took part in, ended at `end`; `stalled`: its caller waited for a
  // worker that was not running. While stalls repeat, each backoff doubles (kFirst up to kMax);
  // a job without a stall starts the next one at kFirst again.
  void record(bool stalled, Clock::time_point end) {
    if (!stalled) {
      ++jobs_since_stall_;
      backoff_ = Clock::duration::zero();
      return;
    }
    if (jobs_since_stall_ <= kRepeatJobs) {
      backoff_ = backoff_ == Clock::duration::zero()
                     ? Clock::duration(kFirst)
                     : std::min<Clock::duration>(2 * backoff_, kMax);
      inline_until_ = end + backoff_;
    }
    jobs_since_stall_ = 0;
  }

 private:
  Clock::time_point inline_until_{};
  Clock::duration backoff_{};
  std::int64_t jobs_since_stall_ = kRepeatJobs + 1;  // no stall yet
};

}  // namespace tensorbuf::core
