// core::BackendRun, the device-run protocol every op uses: pointers on the run's device, the end
// of device use recorded on every touched buffer, the first error kept, no throw on unwind.
// CUDA runs use TestDeviceMemory (host memory posing as device memory), so these run anywhere.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "core/backend_run.hpp"
#include "support/test_device_memory.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using core::BackendRun;
using testing::ScopedTestDeviceMemory;

static_assert(std::is_nothrow_destructible_v<BackendRun>,
              "an error unwinding through an op must never reach std::terminate");

TensorBuffer floats(std::vector<float> values) {
  TensorBuffer b = TensorBuffer::create_fixed_size(Shape{static_cast<std::int64_t>(values.size())},
                                                   DataType::kFloat32);
  b.load_array(values);
  return b;
}

TEST(BackendRunTest, AFailedOpKeepsItsOwnErrorWhenRecordingAlsoFails) {
  ScopedTestDeviceMemory memory;
  TensorBuffer a = floats({1, 2});
  TensorBuffer out = floats({0, 0});
  const std::int64_t records_before = memory->event_records();
  try {
    BackendRun run(Device::cuda(0), Stream{});
    run.read(a);
    run.overwrite(out);
    memory->fail_event_record(1);
    throw OutOfRangeError("the op's own error");
  } catch (const OutOfRangeError& e) {
    EXPECT_EQ(std::string(e.what()), "the op's own error");
  }
  memory->fail_nothing();
  // Both touched buffers were finished, although recording the first one failed.
  EXPECT_EQ(memory->event_records() - records_before, 2);
}

TEST(BackendRunTest, AFailedUploadKeepsItsErrorWhenRecordingAlsoFails) {
  ScopedTestDeviceMemory memory;
  TensorBuffer a = floats({1, 2});
  TensorBuffer b = floats({3, 4});
  try {
    BackendRun run(Device::cuda(0), Stream{});
    run.read(a);
    memory->fail_copy(1);          // b's upload: the op fails inside the protocol
    memory->fail_event_record(1);  // and so does recording a's end of use on unwind
    run.read(b);
    ADD_FAILURE() << "the upload did not fail";
  } catch (const InternalError& e) {
    EXPECT_EQ(std::string(e.what()), "injected copy failure");
  }
  memory->fail_nothing();
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{3, 4}));
}

TEST(BackendRunTest, ASuccessfulRunReportsTheRecordFailureAfterFinishingEveryBuffer) {
  ScopedTestDeviceMemory memory;
  TensorBuffer a = floats({1, 2});
  TensorBuffer out = floats({0, 0});
  BackendRun run(Device::cuda(0), Stream{});
  run.read(a);
  static_cast<float*>(run.overwrite(out))[1] = 7;
  const std::int64_t records_before = memory->event_records();
  memory->fail_event_record(1);
  try {
    run.finish();
    ADD_FAILURE() << "finish() swallowed the record failure";
  } catch (const InternalError& e) {
    EXPECT_EQ(std::string(e.what()), "injected event record failure");
  }
  memory->fail_nothing();
  EXPECT_EQ(memory->event_records() - records_before, 2);
  EXPECT_TRUE(out.is_valid_on(Device::cuda(0)));
  EXPECT_FALSE(out.is_valid_on(Device::cpu()));
}

TEST(BackendRunTest, TheFirstOfSeveralRecordFailuresIsKept) {
  ScopedTestDeviceMemory memory;
  TensorBuffer a = floats({1});
  TensorBuffer b = floats({2});
  TensorBuffer c = floats({3});
  BackendRun run(Device::cuda(0), Stream{});
  run.read(a);
  run.read(b);
  run.read(c);
  const std::int64_t records_before = memory->event_records();
  memory->fail_event_record(2);
  EXPECT_THROW(run.finish(), InternalError);
  EXPECT_EQ(memory->event_records() - records_before, 3);
}

TEST(BackendRunTest, CudaRunHandsOutDevicePointersAndMarksWrittenBuffers) {
  ScopedTestDeviceMemory memory;
  TensorBuffer in = floats({1, 2, 3});
  TensorBuffer kept = floats({4, 5, 6});
  TensorBuffer out = TensorBuffer::create_uninitialized(Shape{3}, DataType::kFloat32);
  BackendRun run(Device::cuda(0), Stream{});
  ASSERT_TRUE(run.on_cuda());
  const auto* src = static_cast<const float*>(run.read(in));
  auto* mutated = static_cast<float*>(run.mutate(kept));
  auto* dst = static_cast<float*>(run.overwrite(out));
  EXPECT_TRUE(memory->is_device_pointer(src));
  EXPECT_TRUE(memory->is_device_pointer(mutated));
  EXPECT_TRUE(memory->is_device_pointer(dst));
  EXPECT_EQ(mutated[2], 6);  // mutate syncs the contents first
  for (int i = 0; i < 3; ++i) dst[i] = src[i] * 10;
  mutated[0] = -1;
  run.finish();
  EXPECT_TRUE(in.is_valid_on(Device::cpu()));  // read leaves the host copy valid
  EXPECT_FALSE(kept.is_valid_on(Device::cpu()));
  EXPECT_EQ(out.get_float_array(), (std::vector<float>{10, 20, 30}));
  EXPECT_EQ(kept.get_float_array(), (std::vector<float>{-1, 5, 6}));
}

TEST(BackendRunTest, CpuRunUsesHostMemoryAndRecordsNothing) {
  ScopedTestDeviceMemory memory;
  TensorBuffer in = floats({1, 2});
  TensorBuffer out = TensorBuffer::create_uninitialized(Shape{2}, DataType::kFloat32);
  const std::int64_t records_before = memory->event_records();
  BackendRun run(Device::cpu(), Stream{});
  EXPECT_FALSE(run.on_cuda());
  EXPECT_EQ(run.read(in), in.host_bytes());
  EXPECT_FALSE(memory->is_device_pointer(run.overwrite(out)));
  run.finish();
  EXPECT_EQ(memory->event_records(), records_before);
}

TEST(BackendRunTest, CopyMovesTheBytesOnEitherDevice) {
  ScopedTestDeviceMemory memory;
  for (const Device device : {Device::cpu(), Device::cuda(0)}) {
    TensorBuffer src = floats({1, 2, 3});
    TensorBuffer dst = floats({0, 0, 0});
    BackendRun run(device, Stream{});
    run.copy(dst, src);
    run.finish();
    EXPECT_EQ(dst.is_valid_on(Device::cuda(0)), device.is_cuda()) << device.to_string();
    EXPECT_EQ(dst.get_float_array(), (std::vector<float>{1, 2, 3})) << device.to_string();
  }
}

}  // namespace
}  // namespace tensorbuf
