// Concurrent use that the API allows (run under the tsan preset in CI): many const readers of a
// stale buffer copy exactly once; the thread pool serves several callers at once; a bounded
// StringTensor is trimmed once while ops read it on the device.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/backend_run.hpp"
#include "core/string_tensor_access.hpp"
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

TEST(ConcurrencyTest, ABoundedStringTensorIsTrimmedOnceUnderConcurrentReaders) {
  testing::ScopedTestDeviceMemory memory;
  // 64 strings "x" * (i % 5) written on the device, chars held at a bound of 1000 bytes.
  TensorBuffer offsets = TensorBuffer::create_uninitialized({65}, DataType::kInt64);
  TensorBuffer chars = TensorBuffer::create_uninitialized({1000}, DataType::kUInt8);
  auto* off = offsets.overwrite_device<std::int64_t>();
  auto* bytes = static_cast<std::uint8_t*>(chars.overwrite_device_bytes());
  std::vector<std::string> expected;
  off[0] = 0;
  for (int i = 0; i < 64; ++i) {
    expected.emplace_back(static_cast<std::size_t>(i % 5), 'x');
    off[i + 1] = off[i] + i % 5;
  }
  std::fill(bytes, bytes + off[64], 'x');
  const std::int64_t total = off[64];
  const StringTensor strings = core::StringTensorAccess::make_bounded(
      std::move(offsets), std::move(chars), Shape{64});
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      if (t % 2 == 0) {  // an op reading it on the device, as substr does
        const std::int64_t bound = core::StringTensorAccess::chars_bound(strings);
        wrong += bound != 1000 && bound != total;
        core::BackendRun run(Device::cuda(0), Stream{});
        run.read(strings.offsets());
        run.read(core::StringTensorAccess::chars_on(strings, Device::cuda(0)));
        run.finish();
        return;
      }
      wrong += strings.num_chars() != total;
      wrong += strings.to_strings() != expected;
      wrong += strings.at(63) != expected[63];
      wrong += strings.chars().flat_size() != total;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(core::StringTensorAccess::chars_bound(strings), total);
  EXPECT_EQ(memory->downloads(), 2);  // the offsets and the kept chars, once each
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

// Ops only read their const inputs: many threads may share them. Each thread checks its
// results against the single-threaded answer.
TEST(ConcurrencyTest, OpsOnSharedConstInputsFromManyThreads) {
  const std::int64_t n = 1 << 14;
  TensorBuffer tensor = TensorBuffer::create_fixed_size({n}, DataType::kFloat32);
  TensorBuffer mask = TensorBuffer::create_fixed_size({n}, DataType::kBool);
  TensorBuffer indices = TensorBuffer::create_fixed_size({n / 2, 1}, DataType::kInt64);
  TensorBuffer updates = TensorBuffer::create_fixed_size({n / 2}, DataType::kFloat32);
  {
    float* t = tensor.overwrite_host<float>();
    std::uint8_t* m = mask.overwrite_host<std::uint8_t>();
    std::int64_t* idx = indices.overwrite_host<std::int64_t>();
    float* u = updates.overwrite_host<float>();
    for (std::int64_t i = 0; i < n; ++i) {
      t[i] = static_cast<float>(i % 97);
      m[i] = i % 3 == 0;
    }
    for (std::int64_t i = 0; i < n / 2; ++i) {
      idx[i] = (i * 7919) % n;
      u[i] = static_cast<float>(i % 13);
    }
  }
  TensorBuffer scalar = TensorBuffer::create_fixed_size({}, DataType::kFloat32);
  StringTensor strings = StringTensor::from_strings({"Hello", "World", "h\xc3\xa9llo"}, {3});
  TensorBuffer pos = TensorBuffer::create_fixed_size({}, DataType::kInt32);
  pos.load_array(std::vector<std::int32_t>{1});
  TensorBuffer len = TensorBuffer::create_fixed_size({}, DataType::kInt32);
  len.load_array(std::vector<std::int32_t>{3});

  const std::vector<float> scattered =
      tensor_scatter_nd_sub(tensor, indices, updates).get_float_array();
  const std::vector<float> masked = boolean_mask_update(tensor, mask, scalar).get_float_array();
  {  // The serial results themselves, from the inputs' definitions (scalar is 0).
    std::vector<float> want_scattered(static_cast<std::size_t>(n));
    std::vector<float> want_masked(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      want_scattered[static_cast<std::size_t>(i)] = static_cast<float>(i % 97);
      want_masked[static_cast<std::size_t>(i)] = i % 3 == 0 ? 0.0f : static_cast<float>(i % 97);
    }
    for (std::int64_t i = 0; i < n / 2; ++i) {
      want_scattered[static_cast<std::size_t>((i * 7919) % n)] -= static_cast<float>(i % 13);
    }
    ASSERT_EQ(scattered, want_scattered);
    ASSERT_EQ(masked, want_masked);
  }
  const std::vector<std::string> sliced =
      substr(strings, pos, len, {.unit = SubstrUnit::kUtf8Char}).to_strings();
  ASSERT_EQ(sliced, (std::vector<std::string>{"ell", "orl", "\xc3\xa9ll"}));

  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int round = 0; round < 3; ++round) {
        wrong += tensor_scatter_nd_sub(tensor, indices, updates).get_float_array() != scattered;
        wrong += boolean_mask_update(tensor, mask, scalar).get_float_array() != masked;
        wrong += substr(strings, pos, len, {.unit = SubstrUnit::kUtf8Char}).to_strings() != sliced;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
}

// Concurrent callers on their own tensors (an inference server's request threads): mask
// updates and in-place scatter adds large enough for the pool (several chunks, several scatter
// owners), from 4 threads at once. Each thread checks exact values against its own serial
// loop, so a chunk run twice, skipped, or run on another caller's job shows.
TEST(ConcurrencyTest, CallPairsFromConcurrentCallersOnTheirOwnTensors) {
  constexpr std::int64_t kTable = std::int64_t{1} << 22;  // beyond the cache: several owners
  constexpr std::int64_t kRows = std::int64_t{1} << 17;
  constexpr std::int64_t kMasked = std::int64_t{1} << 16;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::vector<float> table(static_cast<std::size_t>(kTable));
      std::vector<std::int64_t> index(static_cast<std::size_t>(kRows));
      std::vector<float> values(static_cast<std::size_t>(kRows));
      for (std::int64_t i = 0; i < kTable; ++i) table[i] = static_cast<float>((i + t) % 89);
      for (std::int64_t r = 0; r < kRows; ++r) {
        index[r] = (r * 40503 + t * 977) % kTable;
        values[r] = static_cast<float>((r + t) % 7) * 0.25f;
      }
      TensorBuffer target = TensorBuffer::create_fixed_size({kTable}, DataType::kFloat32);
      target.load_array(table);
      TensorBuffer indices = TensorBuffer::create_fixed_size({kRows, 1}, DataType::kInt64);
      std::copy(index.begin(), index.end(), indices.overwrite_host<std::int64_t>());
      TensorBuffer updates = TensorBuffer::create_fixed_size({kRows}, DataType::kFloat32);
      updates.load_array(values);
      TensorBuffer mask = TensorBuffer::create_fixed_size({kMasked}, DataType::kBool);
      std::uint8_t* m = mask.overwrite_host<std::uint8_t>();
      for (std::int64_t i = 0; i < kMasked; ++i) m[i] = (i * 31 + t) % 5 < 2;
      TensorBuffer small = TensorBuffer::create_fixed_size({kMasked}, DataType::kFloat32);
      small.load_array(std::vector<float>(table.begin(), table.begin() + kMasked));
      TensorBuffer fill = TensorBuffer::create_fixed_size({}, DataType::kFloat32);
      fill.load_array(std::vector<float>{-1.0f});
      std::vector<float> want_masked(table.begin(), table.begin() + kMasked);
      for (std::int64_t i = 0; i < kMasked; ++i) {
        if (m[i] != 0) want_masked[i] = -1.0f;
      }
      for (int round = 0; round < 3; ++round) {
        tensor_scatter_nd_add_in_place(target, indices, updates);
        for (std::int64_t r = 0; r < kRows; ++r) table[index[r]] += values[r];
        wrong += boolean_mask_update(small, mask, fill).get_float_array() != want_masked;
      }
      wrong += target.get_float_array() != table;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
}

}  // namespace
}  // namespace tensorbuf
