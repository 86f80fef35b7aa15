// The caching host allocator behind buffers on machines without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

#include "core/host_allocator.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

TEST(HostAllocatorTest, SmallBlocksAreAlignedAndNotInTheSharedCache) {
  const std::size_t before = core::cached_host_bytes();
  void* p = core::allocate_host_memory(100);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 64, 0u);
  core::free_host_memory(p, 100);
  EXPECT_EQ(core::cached_host_bytes(), before);
}

TEST(HostAllocatorTest, ASmallBlockIsReusedByTheThreadThatFreedItForTheSameRoundedSize) {
  if (!core::small_host_cache_enabled()) GTEST_SKIP() << "no small-block cache under ASan";
  void* p = core::allocate_host_memory(1000);
  core::free_host_memory(p, 1000);
  void* other_size = core::allocate_host_memory(2000);  // p is held for 1024-byte blocks
  EXPECT_NE(other_size, p);
  void* q = core::allocate_host_memory(1020);  // same 64-byte rounding: 1024
  EXPECT_EQ(q, p);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(q) % 64, 0u);
  void* from_another_thread = nullptr;
  core::free_host_memory(q, 1020);
  std::thread([&] { from_another_thread = core::allocate_host_memory(1000); }).join();
  EXPECT_NE(from_another_thread, p);  // another thread's cache does not hold it
  core::free_host_memory(from_another_thread, 1000);
  core::free_host_memory(other_size, 2000);
}

TEST(HostAllocatorTest, AThreadKeepsItsLastFourSmallBlocks) {
  if (!core::small_host_cache_enabled()) GTEST_SKIP() << "no small-block cache under ASan";
  constexpr std::size_t kBytes = 4096 + 64 * 7;  // a size no other test here uses
  std::vector<void*> freed;
  for (int i = 0; i < 6; ++i) freed.push_back(core::allocate_host_memory(kBytes));
  for (void* p : freed) core::free_host_memory(p, kBytes);
  int reused = 0;
  std::vector<void*> again;
  for (int i = 0; i < 6; ++i) {
    again.push_back(core::allocate_host_memory(kBytes));
    reused += std::count(freed.begin(), freed.end(), again.back()) > 0 ? 1 : 0;
    static_cast<char*>(again.back())[kBytes - 1] = 1;  // the whole block is usable
  }
  // The last four freed come back first; the two before them went to free() (glibc may hand
  // those out again itself, so at least four).
  EXPECT_GE(reused, 4);
  EXPECT_TRUE(std::find(again.begin(), again.begin() + 4, freed[5]) != again.begin() + 4);
  for (void* p : again) core::free_host_memory(p, kBytes);
}

TEST(HostAllocatorTest, LargeBlocksAreReusedForTheSameRoundedSize) {
  const std::size_t bytes = (std::size_t{3} << 20) + 5;
  void* p = core::allocate_host_memory(bytes);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % (std::size_t{2} << 20), 0u);
  static_cast<char*>(p)[bytes - 1] = 1;  // the whole block is usable
  core::free_host_memory(p, bytes);
  EXPECT_GE(core::cached_host_bytes(), std::size_t{4} << 20);
  void* q = core::allocate_host_memory((std::size_t{4} << 20) - 7);  // same 2 MiB rounding
  EXPECT_EQ(q, p);
  core::free_host_memory(q, (std::size_t{4} << 20) - 7);
}

TEST(HostAllocatorTest, BuffersReuseFreedLargeOutputs) {
  const void* first = nullptr;
  {
    TensorBuffer a = TensorBuffer::create_fixed_size({1 << 20}, DataType::kFloat32);
    first = a.host<float>();
  }
  TensorBuffer b = TensorBuffer::create_fixed_size({1 << 20}, DataType::kFloat32);
  if (!cuda_available()) {
    EXPECT_EQ(b.host<float>(), first);
  }
  EXPECT_EQ(b.get_float_value((1 << 20) - 1), 0.0f);  // zero-filled even when reused
}

}  // namespace
}  // namespace tensorbuf
