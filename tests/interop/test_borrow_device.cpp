// Borrowed memory with a device side, on the CPU: host memory posing as device memory drives
// the home / mirror rules (docs/interop.md, I1), evict and bytes_on.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/backend_run.hpp"
#include "support/interop_helpers.hpp"
#include "support/test_device_memory.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::ReleaseLog;
using testing::ScopedTestDeviceMemory;

// "Device" memory the caller owns (the test device memory's pointers are host-addressable).
struct CallerDeviceBlock {
  explicit CallerDeviceBlock(std::vector<float> values) : values_(std::move(values)) {}
  float* data() { return values_.data(); }
  std::vector<float>& values() { return values_; }
  std::vector<float> values_;
};

class BorrowDeviceTest : public ::testing::Test {
 protected:
  ScopedTestDeviceMemory memory_;
};

TEST_F(BorrowDeviceTest, DeviceHomeResidesOnTheDeviceAndHostReadsCopyFromHomeEveryCall) {
  CallerDeviceBlock block({1, 2, 3});
  TensorBuffer b = TensorBuffer::borrow(block.data(), Shape{3}, DataType::kFloat32,
                                        Device::cuda(0));
  EXPECT_EQ(b.residence(), Device::cuda(0));
  EXPECT_EQ(b.device<float>(), block.data());
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(memory_->downloads(), 1);
  block.values()[1] = 20;  // the owner writes its memory between calls
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{1, 20, 3}));  // the mirror is never stale
  EXPECT_EQ(memory_->downloads(), 2);
  EXPECT_FALSE(b.is_valid_on(Device::cpu()));
  EXPECT_EQ(memory_->device_allocations(), 0);
}

TEST_F(BorrowDeviceTest, CacheMirrorKeepsTheCopyUntilNoteExternalWrite) {
  CallerDeviceBlock block({1, 2});
  BorrowOptions options;
  options.cache_mirror = true;
  TensorBuffer b = TensorBuffer::borrow(block.data(), Shape{2}, DataType::kFloat32,
                                        Device::cuda(0), options);
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{1, 2}));
  block.values()[0] = 10;
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{1, 2}));  // cached, as promised
  EXPECT_EQ(memory_->downloads(), 1);
  EXPECT_EQ(b.residence(), Device::cuda(0));  // ops still run at the home
  b.note_external_write();
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{10, 2}));
  EXPECT_EQ(memory_->downloads(), 2);
}

TEST_F(BorrowDeviceTest, HostHomeDeviceMirrorIsUploadedAgainEveryCall) {
  std::vector<float> data = {1, 2};
  TensorBuffer b = TensorBuffer::borrow(data.data(), Shape{2}, DataType::kFloat32, Device::cpu());
  const float* d = b.device<float>();
  EXPECT_EQ(d[0], 1.0f);
  EXPECT_EQ(memory_->uploads(), 1);
  data[0] = 5;
  EXPECT_EQ(b.device<float>()[0], 5.0f);
  EXPECT_EQ(memory_->uploads(), 2);
  EXPECT_EQ(b.residence(), Device::cpu());
  EXPECT_EQ(b.bytes_on(Device::cuda(0)), 8u);
}

TEST_F(BorrowDeviceTest, CpuOpOnDeviceHomeWritesTheResultBackBeforeReturning) {
  CallerDeviceBlock block({1, 1, 1, 1});
  TensorBuffer table = TensorBuffer::borrow(block.data(), Shape{4}, DataType::kFloat32,
                                            Device::cuda(0));
  TensorBuffer indices = TensorBuffer::create_fixed_size(Shape{1, 1}, DataType::kInt32);
  indices.load_array(std::vector<std::int32_t>{2});
  TensorBuffer updates = TensorBuffer::create_fixed_size(Shape{1}, DataType::kFloat32);
  updates.load_array(std::vector<float>{4});
  reset_stats();
  ScatterOptions on_cpu;
  on_cpu.device = Device::cpu();
  tensor_scatter_nd_add_in_place(table, indices, updates, on_cpu);
  EXPECT_EQ(block.values(), (std::vector<float>{1, 1, 5, 1}));  // home written back
  EXPECT_EQ(stats().device_to_host_copies, 1);  // the home, read on the host
  EXPECT_EQ(stats().host_to_device_copies, 1);  // the result, written back
  EXPECT_EQ(table.residence(), Device::cuda(0));
}

TEST_F(BorrowDeviceTest, DeviceRunOnHostHomeWritesBackWithOneHostWait) {
  std::vector<float> data = {1, 2};
  TensorBuffer b = TensorBuffer::borrow(data.data(), Shape{2}, DataType::kFloat32, Device::cpu());
  reset_stats();
  {
    core::BackendRun run(Device::cuda(0), Stream{});  // what a CUDA op does with its tensor
    static_cast<float*>(run.mutate(b))[1] = 7;
    run.finish();
  }
  EXPECT_EQ(data[1], 7.0f);  // written back before the op returns
  EXPECT_EQ(stats().host_to_device_copies, 1);
  EXPECT_EQ(stats().device_to_host_copies, 1);
  EXPECT_EQ(stats().host_waits, 1);
  EXPECT_EQ(stats().host_allocations + stats().pinned_host_allocations, 0);
  EXPECT_EQ(b.residence(), Device::cpu());
}

TEST_F(BorrowDeviceTest, LoadIntoDeviceHomeWritesTheHome) {
  CallerDeviceBlock block({0, 0});
  TensorBuffer b = TensorBuffer::borrow(block.data(), Shape{2}, DataType::kFloat32,
                                        Device::cuda(0));
  b.load_array(std::vector<std::int32_t>{3, 4});
  EXPECT_EQ(block.values(), (std::vector<float>{3, 4}));
}

TEST_F(BorrowDeviceTest, HostAccessorWriteReachesTheHomeAtSyncTo) {
  CallerDeviceBlock block({0, 0});
  TensorBuffer b = TensorBuffer::borrow(block.data(), Shape{2}, DataType::kFloat32,
                                        Device::cuda(0));
  b.mutable_host<float>()[1] = 9;
  EXPECT_EQ(block.values()[1], 0.0f);  // the mirror is the freshest copy now
  EXPECT_TRUE(b.is_valid_on(Device::cpu()));
  b.sync_to(Device::cuda(0));
  EXPECT_EQ(block.values()[1], 9.0f);
}

TEST_F(BorrowDeviceTest, ReadOnlyDeviceMemoryIsNeverWritten) {
  CallerDeviceBlock block({1, 2});
  BorrowOptions options;
  options.read_only = true;
  TensorBuffer b = TensorBuffer::borrow(block.data(), Shape{2}, DataType::kFloat32,
                                        Device::cuda(0), options);
  EXPECT_THROW(b.mutable_device<float>(), InvalidArgumentError);
  EXPECT_THROW(b.overwrite_device<float>(), InvalidArgumentError);
  EXPECT_THROW(b.load_array(std::vector<float>{5, 6}), InvalidArgumentError);
  EXPECT_EQ(block.values(), (std::vector<float>{1, 2}));
  EXPECT_EQ(memory_->uploads(), 0);
}

TEST_F(BorrowDeviceTest, DeviceHomeIsPinnedToItsDevice) {
  CallerDeviceBlock block({1});
  TensorBuffer b = TensorBuffer::borrow(block.data(), Shape{1}, DataType::kFloat32,
                                        Device::cuda(0));
  EXPECT_THROW(b.sync_to(Device::cuda(1)), InvalidArgumentError);
  EXPECT_THROW(b.evict(Device::cuda(0)), InvalidArgumentError);
  EXPECT_EQ(b.device<float>(), block.data());
}

TEST_F(BorrowDeviceTest, ReleaseGetsTheStreamOfTheLastUse) {
  std::vector<float> data = {1};
  ReleaseLog log;
  {
    BorrowOptions options;
    options.release = log.callback();
    TensorBuffer b = TensorBuffer::borrow(data.data(), Shape{1}, DataType::kFloat32,
                                          Device::cpu(), options);
    b.sync_to(Device::cuda(0));
  }
  EXPECT_EQ(log.calls(), 1);
  EXPECT_EQ(log.last_stream(), memory_->default_stream(0));
  EXPECT_EQ(memory_->host_waits(), 1);  // the upload still reading the caller's host memory
}

TEST_F(BorrowDeviceTest, EvictDropsTheHostCopyOfADeviceResult) {
  TensorBuffer b = TensorBuffer::create_fixed_size(Shape{1024}, DataType::kFloat32);
  b.mutable_device<float>()[7] = 3;
  EXPECT_EQ(b.get_float_value(7), 3.0f);  // read once on the host
  const std::int64_t live = memory_->live_host_blocks();
  EXPECT_EQ(b.bytes_on(Device::cpu()), 4096u);
  b.evict(Device::cpu());
  EXPECT_EQ(b.bytes_on(Device::cpu()), 0u);
  EXPECT_EQ(memory_->live_host_blocks(), live - 1);
  EXPECT_EQ(b.residence(), Device::cuda(0));
  EXPECT_EQ(b.get_float_value(7), 3.0f);  // downloaded again
  b.evict(Device::cuda(0));
  EXPECT_EQ(b.bytes_on(Device::cuda(0)), 0u);
  EXPECT_EQ(b.get_float_value(7), 3.0f);
  EXPECT_EQ(b.residence(), Device::cpu());
}

TEST_F(BorrowDeviceTest, EvictRefusesToLoseTheOnlyCopy) {
  TensorBuffer b = TensorBuffer::create_fixed_size(Shape{4}, DataType::kFloat32);
  b.load_array(std::vector<float>{1, 2, 3, 4});
  EXPECT_THROW(b.evict(Device::cpu()), InvalidArgumentError);  // no device copy at all
  b.mutable_device<float>()[0] = 9;
  EXPECT_THROW(b.evict(Device::cuda(0)), InvalidArgumentError);  // host is stale
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{9, 2, 3, 4}));
}

}  // namespace
}  // namespace tensorbuf
