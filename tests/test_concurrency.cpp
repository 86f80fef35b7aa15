// Concurrent use that the API allows (run under the tsan preset in CI): many const readers of a
// stale buffer copy exactly once; the thread pool serves several callers at once.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "support/test_device_memory.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

constexpr int kThreads = 8;

TEST(ConcurrencyTest, ConcurrentReadersOfStaleHostDownloadOnce) {
  testing::ScopedTestDeviceMemory memory;
  TensorBuffer b = TensorBuffer::create_fixed_size({1024}, DataType::kInt32);
  std::int32_t* d = b.overwrite_device<std::int32_t>();
  for (int i = 0; i < 1024; ++i) d[i] = i;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      const std::int32_t* h = b.host<std::int32_t>();
      for (int i = 0; i < 1024; ++i) wrong += h[i] != i;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(memory->downloads(), 1);
}

TEST(ConcurrencyTest, ConcurrentSyncToDeviceUploadsOnce) {
  testing::ScopedTestDeviceMemory memory;
  TensorBuffer b = TensorBuffer::create_fixed_size({256}, DataType::kFloat32);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back([&] { b.sync_to(Device::cuda()); });
  for (auto& t : threads) t.join();
  EXPECT_EQ(memory->uploads(), 1);
  EXPECT_EQ(memory->device_allocations(), 1);
}

TEST(ConcurrencyTest, ParallelLoadsFromManyThreads) {
  // Each thread converts its own large buffer; the shared pool runs one job at a time.
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::vector<float> v(1 << 18, static_cast<float>(t * 100 + 0.5));
      TensorBuffer b = TensorBuffer::create_dynamic(DataType::kUInt8);
      for (int round = 0; round < 4; ++round) {
        b.load_array(v, {static_cast<std::int64_t>(v.size())});
        const std::uint8_t* p = b.host<std::uint8_t>();
        const int expected = t * 100 > 255 ? 255 : t * 100;
        for (std::size_t i = 0; i < v.size(); i += 997) wrong += p[i] != expected;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
}

TEST(ConcurrencyTest, ConstReadsOfOneBufferFromManyThreads) {
  TensorBuffer b = TensorBuffer::create_fixed_size({1 << 17}, DataType::kFloat16);
  b.load_array(std::vector<float>(1 << 17, 1.5f));
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      std::vector<float> f = b.get_float_array();
      for (float x : f) wrong += x != 1.5f;
      wrong += b.get_int_value(5) != 1;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
}

}  // namespace
}  // namespace tensorbuf
