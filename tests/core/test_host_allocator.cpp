// The caching host allocator behind buffers on machines without a GPU.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/host_allocator.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

TEST(HostAllocatorTest, SmallBlocksAreAlignedAndNotCached) {
  const std::size_t before = core::cached_host_bytes();
  void* p = core::allocate_host_memory(100);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 64, 0u);
  core::free_host_memory(p, 100);
  EXPECT_EQ(core::cached_host_bytes(), before);
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
