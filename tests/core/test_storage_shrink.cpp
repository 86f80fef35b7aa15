// Storage::shrink / BufferAccess::shrink: a device-written buffer's size lowered in place (the
// trim of a bounded StringTensor, include/tensorbuf/string_tensor.hpp): the same memory, nothing
// copied, later syncs copy only the bytes kept, and the block is freed at its allocated size.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "core/buffer_access.hpp"
#include "core/storage.hpp"
#include "support/test_device_memory.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::ScopedTestDeviceMemory;

class StorageShrink : public ::testing::Test {
 protected:
  // 16 bytes written on the device only: 0, 1, ..., 15.
  TensorBuffer device_written() {
    TensorBuffer b = TensorBuffer::create_uninitialized(Shape{16}, DataType::kUInt8);
    auto* d = static_cast<std::uint8_t*>(b.overwrite_device_bytes());
    for (int i = 0; i < 16; ++i) d[i] = static_cast<std::uint8_t>(i);
    return b;
  }
  ScopedTestDeviceMemory memory_;
};

TEST_F(StorageShrink, KeepsTheMemoryAndCopiesNothing) {
  TensorBuffer b = device_written();
  const void* before = b.device_bytes();
  const std::int64_t copies = memory_->downloads() + memory_->uploads();
  core::BufferAccess::shrink(b, 5);
  EXPECT_EQ(b.shape(), Shape{5});
  EXPECT_EQ(b.flat_size(), 5);
  EXPECT_EQ(b.size_bytes(), 5u);
  EXPECT_EQ(b.device_bytes(), before);  // same data pointer
  EXPECT_EQ(memory_->downloads() + memory_->uploads(), copies);
  EXPECT_EQ(b.bytes_on(Device::cuda(0)), 16u);  // the block keeps its size
  EXPECT_TRUE(b.is_valid_on(Device::cuda(0)));
}

TEST_F(StorageShrink, ALaterHostReadCopiesOnlyTheBytesKept) {
  TensorBuffer b = device_written();
  core::BufferAccess::shrink(b, 5);
  reset_stats();
  const auto* h = static_cast<const std::uint8_t*>(b.host_bytes());
  EXPECT_EQ(stats().bytes_device_to_host, 5);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(h[i], i);
  EXPECT_EQ(b.bytes_on(Device::cpu()), 5u);
}

TEST_F(StorageShrink, ToZeroBytes) {
  TensorBuffer b = device_written();
  core::BufferAccess::shrink(b, 0);
  EXPECT_EQ(b.flat_size(), 0);
  EXPECT_EQ(b.host_bytes(), nullptr);  // an empty buffer, as one created empty
  EXPECT_EQ(memory_->downloads(), 0);
}

TEST_F(StorageShrink, FreesTheBlockOnce) {
  {
    TensorBuffer b = device_written();
    core::BufferAccess::shrink(b, 3);
    EXPECT_EQ(memory_->live_device_blocks(), 1);
  }
  EXPECT_EQ(memory_->live_device_blocks(), 0);
}

TEST_F(StorageShrink, GrowingIsAnInternalErrorAndChangesNothing) {
  TensorBuffer b = device_written();
  EXPECT_THROW(core::BufferAccess::shrink(b, 17), InternalError);
  EXPECT_THROW(core::BufferAccess::shrink(b, -1), InternalError);
  EXPECT_EQ(b.flat_size(), 16);
  EXPECT_EQ(b.size_bytes(), 16u);
}

TEST_F(StorageShrink, AHostCopyIsAnInternalError) {
  // Its block would be freed at the smaller size.
  TensorBuffer b = device_written();
  b.sync_to(Device::cpu());
  EXPECT_THROW(core::BufferAccess::shrink(b, 3), InternalError);
  EXPECT_EQ(b.size_bytes(), 16u);
}

TEST_F(StorageShrink, BorrowedMemoryIsAnInternalError) {
  std::uint8_t bytes[8] = {};
  TensorBuffer b =
      TensorBuffer::borrow(static_cast<void*>(bytes), Shape{8}, DataType::kUInt8, Device::cpu());
  EXPECT_THROW(core::BufferAccess::shrink(b, 3), InternalError);
}

TEST_F(StorageShrink, OnlyRankOneBuffers) {
  TensorBuffer b = TensorBuffer::create_uninitialized(Shape{2, 8}, DataType::kUInt8);
  (void)b.overwrite_device_bytes();
  EXPECT_THROW(core::BufferAccess::shrink(b, 3), InternalError);
}

}  // namespace
}  // namespace tensorbuf
