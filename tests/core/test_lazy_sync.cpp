// The lazy-sync state machine (DESIGN.md "TensorBuffer and lazy sync"), driven on the CPU by
// host memory posing as device memory.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/buffer_access.hpp"
#include "core/dispatch.hpp"
#include "core/storage.hpp"
#include "support/test_device_memory.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::ScopedTestDeviceMemory;

class LazySyncTest : public ::testing::Test {
 protected:
  TensorBuffer make(std::vector<float> values) {
    TensorBuffer b = TensorBuffer::create_fixed_size({static_cast<std::int64_t>(values.size())},
                                                     DataType::kFloat32);
    b.load_array(values);
    return b;
  }
  ScopedTestDeviceMemory memory_;
};

TEST_F(LazySyncTest, NewBufferIsValidOnHostOnly) {
  TensorBuffer b = make({1, 2});
  EXPECT_TRUE(b.is_valid_on(Device::cpu()));
  EXPECT_FALSE(b.is_valid_on(Device::cuda()));
  EXPECT_EQ(b.residence(), Device::cpu());
  EXPECT_EQ(memory_->device_allocations(), 0);
}

TEST_F(LazySyncTest, SyncToDeviceCopiesOnceThenNothing) {
  TensorBuffer b = make({1, 2, 3});
  reset_stats();
  b.sync_to(Device::cuda());
  EXPECT_EQ(memory_->uploads(), 1);
  EXPECT_EQ(stats().host_to_device_copies, 1);
  EXPECT_EQ(stats().bytes_host_to_device, 12);
  EXPECT_TRUE(b.is_valid_on(Device::cuda()));
  EXPECT_TRUE(b.is_valid_on(Device::cpu()));
  b.sync_to(Device::cuda());
  const float* d = b.device<float>();
  EXPECT_TRUE(memory_->is_device_pointer(d));
  EXPECT_EQ(memory_->uploads(), 1);
  EXPECT_EQ(d[2], 3.0f);  // test device memory is host-addressable
  b.host<float>();
  EXPECT_EQ(memory_->downloads(), 0);  // reading a valid side copies nothing
}

TEST_F(LazySyncTest, DeviceWriteInvalidatesHostAndHostReadDownloads) {
  TensorBuffer b = make({1, 2});
  float* d = b.mutable_device<float>();
  EXPECT_EQ(memory_->uploads(), 1);  // mutable syncs first
  EXPECT_FALSE(b.is_valid_on(Device::cpu()));
  EXPECT_EQ(b.residence(), Device::cuda());
  d[0] = 10;
  reset_stats();
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{10, 2}));
  EXPECT_EQ(memory_->downloads(), 1);
  EXPECT_EQ(stats().device_to_host_copies, 1);
  EXPECT_EQ(stats().host_waits, 1);
  EXPECT_TRUE(b.is_valid_on(Device::cpu()));
  EXPECT_TRUE(b.is_valid_on(Device::cuda()));
  b.get_float_array();
  EXPECT_EQ(memory_->downloads(), 1);
}

TEST_F(LazySyncTest, TheLockFreeHostPathNeverHidesADeviceWrite) {
  // CPU ops on host-only buffers skip Storage's lock (its host_only_ flag); a device write in
  // between must end that, so the next CPU op downloads first and stales the device copy.
  TensorBuffer t = make({1, 2, 3, 4});
  TensorBuffer index = TensorBuffer::create_fixed_size({1, 1}, DataType::kInt32);
  index.load_array(std::vector<std::int32_t>{1});
  const TensorBuffer update = make({10});
  const ScatterOptions cpu{.device = Device::cpu()};
  tensor_scatter_nd_add_in_place(t, index, update, cpu);
  tensor_scatter_nd_add_in_place(t, index, update, cpu);
  EXPECT_EQ(t.get_float_array(), (std::vector<float>{1, 22, 3, 4}));
  EXPECT_EQ(memory_->downloads(), 0);
  t.mutable_device<float>()[3] = 40;
  tensor_scatter_nd_add_in_place(t, index, update, cpu);
  EXPECT_EQ(memory_->downloads(), 1);
  EXPECT_FALSE(t.is_valid_on(Device::cuda()));
  EXPECT_EQ(t.get_float_array(), (std::vector<float>{1, 32, 3, 40}));
  t.sync_to(Device::cuda());  // both sides current: a host write must still stale the device
  tensor_scatter_nd_add_in_place(t, index, update, cpu);
  EXPECT_FALSE(t.is_valid_on(Device::cuda()));
  EXPECT_EQ(t.get_float_array(), (std::vector<float>{1, 42, 3, 40}));
}

TEST_F(LazySyncTest, OverwriteNeverCopies) {
  TensorBuffer b = make({1, 2});
  float* d = b.overwrite_device<float>();
  EXPECT_EQ(memory_->uploads(), 0);
  d[0] = 5;
  d[1] = 6;
  EXPECT_FALSE(b.is_valid_on(Device::cpu()));
  float* h = b.overwrite_host<float>();
  EXPECT_EQ(memory_->downloads(), 0);
  EXPECT_FALSE(b.is_valid_on(Device::cuda()));
  h[0] = 7;
  h[1] = 8;
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{7, 8}));
  b.sync_to(Device::cuda());
  EXPECT_EQ(b.device<float>()[1], 8.0f);
  EXPECT_EQ(memory_->uploads(), 1);
}

TEST_F(LazySyncTest, HostWriteWaitsForInFlightUploadOnly) {
  TensorBuffer b = make({1, 2});
  b.sync_to(Device::cuda());
  const std::int64_t waits = memory_->host_waits();
  b.mutable_host<float>()[0] = 3;  // the upload may still read host memory
  EXPECT_EQ(memory_->host_waits(), waits + 1);
  EXPECT_FALSE(b.is_valid_on(Device::cuda()));
  b.mutable_host<float>()[0] = 4;  // nothing in flight any more
  EXPECT_EQ(memory_->host_waits(), waits + 1);
}

TEST_F(LazySyncTest, ZeroCopyBufferUploadsFromCallerMemory) {
  std::vector<float> caller = {1, 2, 3};
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat32);
  b.load_buffer(std::as_bytes(std::span<const float>(caller)), {3});
  b.sync_to(Device::cuda());
  EXPECT_EQ(b.host<float>(), caller.data());  // still referenced
  b.mutable_device<float>()[0] = 100;
  EXPECT_EQ(b.get_float_value(0), 100.0f);
  EXPECT_NE(b.host<float>(), caller.data());  // downloaded into owned memory
  EXPECT_EQ(caller[0], 1.0f);                 // never written
}

TEST_F(LazySyncTest, HostMemoryComesFromTheDeviceMemoryAllocator) {
  const std::int64_t before = memory_->host_allocations();
  TensorBuffer b = make({1, 2, 3, 4});
  EXPECT_GT(memory_->host_allocations(), before);  // pinned when a device memory is active
  (void)b;
}

TEST_F(LazySyncTest, DestructionFreesBothSides) {
  {
    TensorBuffer b = make({1, 2});
    b.sync_to(Device::cuda());
    EXPECT_EQ(memory_->live_device_blocks(), 1);
  }
  EXPECT_EQ(memory_->live_device_blocks(), 0);
  EXPECT_EQ(memory_->live_host_blocks(), 0);
}

TEST_F(LazySyncTest, FailedUploadLeavesStateUnchanged) {
  TensorBuffer b = make({1, 2});
  memory_->fail_copy(1);
  EXPECT_THROW(b.sync_to(Device::cuda()), InternalError);
  EXPECT_FALSE(b.is_valid_on(Device::cuda()));
  EXPECT_TRUE(b.is_valid_on(Device::cpu()));
  EXPECT_EQ(memory_->live_device_blocks(), 0);  // the fresh allocation was returned
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{1, 2}));
  b.sync_to(Device::cuda());  // and a retry works
  EXPECT_TRUE(b.is_valid_on(Device::cuda()));
}

TEST_F(LazySyncTest, FailedDeviceAllocationLeavesStateUnchanged) {
  TensorBuffer b = make({1, 2});
  memory_->fail_allocation(1);
  EXPECT_THROW(b.sync_to(Device::cuda()), ResourceExhaustedError);
  EXPECT_FALSE(b.is_valid_on(Device::cuda()));
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{1, 2}));
}

TEST_F(LazySyncTest, FailedDownloadLeavesStateUnchanged) {
  TensorBuffer b = make({1, 2});
  b.mutable_device<float>()[1] = 9;
  memory_->fail_copy(1);
  EXPECT_THROW(b.host<float>(), InternalError);
  EXPECT_FALSE(b.is_valid_on(Device::cpu()));
  EXPECT_TRUE(b.is_valid_on(Device::cuda()));
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{1, 9}));
}

TEST_F(LazySyncTest, FailedHostAllocationOnLoadLeavesBufferUnchanged) {
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat32);
  b.load_array(std::vector<float>{1, 2}, {2});
  memory_->fail_allocation(1);
  EXPECT_THROW(b.load_array(std::vector<float>{1, 2, 3}, {3}), ResourceExhaustedError);
  EXPECT_EQ(b.shape(), Shape({2}));
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{1, 2}));
}

TEST_F(LazySyncTest, EveryInjectedFailureKeepsContentsAndValidity) {
  // Fail the n-th allocation or copy of a small workload, for every n until it succeeds.
  for (int kind = 0; kind < 2; ++kind) {
    for (int n = 1; n < 20; ++n) {
      TensorBuffer b = make({1, 2, 3});
      memory_->fail_nothing();
      kind == 0 ? memory_->fail_allocation(n) : memory_->fail_copy(n);
      bool failed = false;
      bool host_valid = true, device_valid = false;
      std::vector<float> expected = {1, 2, 3};
      try {
        b.sync_to(Device::cuda());
        device_valid = true;
        b.mutable_device<float>()[0] = 7;
        expected[0] = 7;
        host_valid = false;
        b.get_float_array();
        host_valid = true;
        b.mutable_host<float>()[1] = 8;
        expected[1] = 8;
        device_valid = false;
        b.sync_to(Device::cuda());
        device_valid = true;
      } catch (const Error&) {
        failed = true;
      }
      memory_->fail_nothing();
      EXPECT_EQ(b.is_valid_on(Device::cpu()), host_valid) << kind << " " << n;
      EXPECT_EQ(b.is_valid_on(Device::cuda()), device_valid) << kind << " " << n;
      EXPECT_EQ(b.get_float_array(), expected) << kind << " " << n;
      if (!failed) break;
    }
  }
}

TEST_F(LazySyncTest, OpsChooseTheDeviceWhereTheFreshestCopyLives) {
  TensorBuffer b = make({1, 2});
  EXPECT_EQ(core::resolve_device(std::nullopt, b), Device::cpu());
  b.overwrite_device<float>();
  // Device-resident: an op would run on CUDA, which is unusable on this machine's runtime.
  if (!cuda_available()) {
    try {
      core::resolve_device(std::nullopt, b);
      FAIL();
    } catch (const UnavailableError& e) {
      EXPECT_NE(std::string(e.what()).find(cuda_availability_reason()), std::string::npos);
    }
  }
  EXPECT_EQ(core::resolve_device(Device::cpu(), b), Device::cpu());
}

TEST(DispatchTest, PolicyDefaultsFollowTheDevice) {
  EXPECT_EQ(core::resolve_policy(OutOfBoundsPolicy::kDeviceDefault, Device::cpu()),
            OutOfBoundsPolicy::kError);
  EXPECT_EQ(core::resolve_policy(OutOfBoundsPolicy::kDeviceDefault, Device::cuda()),
            OutOfBoundsPolicy::kDrop);
  EXPECT_EQ(core::resolve_policy(OutOfBoundsPolicy::kDrop, Device::cpu()),
            OutOfBoundsPolicy::kDrop);
  EXPECT_EQ(core::resolve_policy(OutOfBoundsPolicy::kError, Device::cuda()),
            OutOfBoundsPolicy::kError);
}

TEST(DispatchTest, AskingForUnavailableCudaRaisesWithReason) {
  if (cuda_available()) GTEST_SKIP() << "a CUDA device is present";
  TensorBuffer b = TensorBuffer::create_fixed_size({1}, DataType::kFloat32);
  try {
    core::resolve_device(Device::cuda(), b);
    FAIL();
  } catch (const UnavailableError& e) {
    EXPECT_NE(std::string(e.what()).find(cuda_availability_reason()), std::string::npos);
  }
}

TEST_F(LazySyncTest, StorageStreamsWaitOnTheLastUseOfAnotherStream) {
  TensorBuffer b = make({1});
  core::Storage& s = core::BufferAccess::storage(b);
  int other_stream = 0;
  s.device_read(0, memory_->default_stream(0));
  s.finish_device_use(memory_->default_stream(0));
  const std::int64_t before = memory_->stream_waits();
  s.device_read(0, &other_stream);  // another stream waits on the event, not the host
  EXPECT_EQ(memory_->stream_waits(), before + 1);
  EXPECT_EQ(memory_->host_waits(), 0);
}

}  // namespace
}  // namespace tensorbuf
