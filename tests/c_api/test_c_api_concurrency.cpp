// Handles from many threads at once (label concurrency: the tsan preset runs this): creating,
// using and destroying buffers concurrently is safe, a stale handle whose table slot another
// thread's buffer now has fails and leaves that buffer alone, and a destroy racing with a read
// of the same handle (a caller error) gives the read its buffer or TB_INVALID_ARGUMENT; one
// processor runs on every thread at once.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "tensorbuf/c_api.h"

namespace {

constexpr int kThreads = 6;
constexpr int kRounds = 300;
constexpr int kElements = 16;

TEST(CApiHandleThreads, StaleHandlesNeverReachAnotherThreadsBuffer) {
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &failures] {
      const std::int64_t shape[1] = {kElements};
      tb_buffer* previous = nullptr;  // this thread's last buffer, destroyed
      for (int round = 0; round < kRounds; ++round) {
        const float mine = static_cast<float>(t * kRounds + round);
        std::vector<float> values(kElements, mine);
        tb_buffer* b = nullptr;
        if (tb_buffer_create(TB_FLOAT32, 1, shape, &b) != TB_OK ||
            tb_buffer_copy_from_host(b, values.data(), sizeof(float) * kElements) != TB_OK) {
          ++failures;
          return;
        }
        if (previous != nullptr) {
          // Its slot may be another thread's live buffer by now: the poison must not land.
          const std::vector<float> poison(kElements, -1.0f);
          if (tb_buffer_copy_from_host(previous, poison.data(), sizeof(float) * kElements) !=
                  TB_INVALID_ARGUMENT ||
              std::string(tb_last_error()) !=
                  "tb_buffer_copy_from_host: buffer is a destroyed or invalid handle") {
            ++failures;
          }
          tb_buffer_destroy(previous);  // a second destroy: a no-op
        }
        std::vector<float> back(kElements, 0.0f);
        if (tb_buffer_copy_to_host(b, back.data(), sizeof(float) * kElements) != TB_OK ||
            back != values) {
          ++failures;
        }
        tb_buffer_destroy(b);
        previous = b;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(CApiHandleThreads, DestroyRacingWithAReadNeverTouchesFreedMemory) {
  const std::int64_t shape[1] = {kElements};
  for (int round = 0; round < 50; ++round) {
    tb_buffer* b = nullptr;
    ASSERT_EQ(tb_buffer_create(TB_FLOAT32, 1, shape, &b), TB_OK);
    std::atomic<bool> go{false};
    std::atomic<int> bad{0};
    std::thread reader([&] {
      while (!go.load()) {
      }
      float back[kElements];
      for (int i = 0; i < 200; ++i) {
        const tb_status s = tb_buffer_copy_to_host(b, back, sizeof back);
        if (s != TB_OK && s != TB_INVALID_ARGUMENT) ++bad;
        if (s == TB_OK && back[0] != 0.0f) ++bad;
      }
    });
    go.store(true);
    tb_buffer_destroy(b);
    reader.join();
    EXPECT_EQ(bad.load(), 0);
  }
}

// One processor run by every thread at once (a Processor is immutable), each thread also
// creating and destroying processors of its own, whose stale handles then fail.
TEST(CApiHandleThreads, OneProcessorRunByManyThreads) {
  tb_process_step step{};
  step.struct_size = sizeof step;
  step.kind = TB_STEP_NORMALIZE;
  step.mean = 1.0f;
  step.stddev = 2.0f;
  tb_processor* shared = nullptr;
  ASSERT_EQ(tb_processor_create(&step, 1, &shared), TB_OK);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, shared, step, &failures] {
      const std::int64_t shape[1] = {kElements};
      for (int round = 0; round < kRounds / 3; ++round) {
        const float mine = static_cast<float>(2 * (t * kRounds + round) + 1);
        const std::vector<float> values(kElements, mine);
        tb_buffer* x = nullptr;
        tb_buffer* y = nullptr;
        tb_processor* own = nullptr;
        std::vector<float> back(kElements, 0.0f);
        if (tb_buffer_create(TB_FLOAT32, 1, shape, &x) != TB_OK ||
            tb_buffer_copy_from_host(x, values.data(), sizeof(float) * kElements) != TB_OK ||
            tb_processor_run(shared, x, nullptr, &y) != TB_OK ||
            tb_buffer_copy_to_host(y, back.data(), sizeof(float) * kElements) != TB_OK ||
            back != std::vector<float>(kElements, (mine - 1.0f) / 2.0f) ||
            tb_processor_create(&step, 1, &own) != TB_OK) {
          ++failures;
        }
        tb_processor_destroy(own);
        std::int64_t steps = -1;
        if (tb_processor_step_count(own, &steps) != TB_INVALID_ARGUMENT || steps != -1) {
          ++failures;
        }
        tb_buffer_destroy(y);
        tb_buffer_destroy(x);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  tb_processor_destroy(shared);
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
