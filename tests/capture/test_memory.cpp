// The capture mode of the test device memory (tests/support/test_device_memory.hpp), the op
// protocol (core::BackendRun) inside a capture, and core::reject_capture: what the ops do on
// CUDA inside cudaStreamBeginCapture, checked without a GPU.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/backend_run.hpp"
#include "core/capture.hpp"
#include "support/test_device_memory.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::ScopedTestDeviceMemory;

TensorBuffer floats(std::vector<float> values) {
  TensorBuffer b = TensorBuffer::create_fixed_size(Shape{static_cast<std::int64_t>(values.size())},
                                                   DataType::kFloat32);
  b.load_array(values);
  return b;
}

// An eager run on `stream` that leaves `input` device-resident, last used on that stream.
void make_resident(TensorBuffer& input, Stream stream) {
  core::BackendRun run(Device::cuda(0), stream);
  run.read(input);
  run.finish();
}

TEST(CaptureMemory, ADeviceResidentRunIsCapturable) {
  ScopedTestDeviceMemory memory;
  int token = 0;
  const Stream caller{&token};
  TensorBuffer input = floats({1, 2, 3});
  make_resident(input, caller);
  memory->begin_capture(caller.handle);
  TensorBuffer out = TensorBuffer::create_uninitialized(Shape{3}, DataType::kFloat32);
  {
    core::BackendRun run(Device::cuda(0), caller);
    EXPECT_TRUE(memory->is_capturing(run.cuda().stream));
    run.read(input);
    run.overwrite(out);  // a pool allocation: allowed
    run.finish();
  }
  // A second op reads the first one's output inside the same capture.
  TensorBuffer out2 = TensorBuffer::create_uninitialized(Shape{3}, DataType::kFloat32);
  {
    core::BackendRun run(Device::cuda(0), caller);
    run.read(out);
    run.overwrite(out2);
    run.finish();
  }
  EXPECT_EQ(memory->end_capture(), 0);
}

TEST(CaptureMemory, AnInputOnlyOnTheHostIsAViolation) {
  ScopedTestDeviceMemory memory;
  int token = 0;
  const Stream caller{&token};
  TensorBuffer input = floats({1, 2, 3});
  memory->begin_capture(caller.handle);
  core::BackendRun run(Device::cuda(0), caller);
  EXPECT_THROW(run.read(input), InternalError);  // the upload
  EXPECT_EQ(memory->end_capture(), 1);
}

TEST(CaptureMemory, AnInputLastUsedOnAnotherStreamIsWaitedForInTheGraph) {
  ScopedTestDeviceMemory memory;
  int token = 0;
  const Stream caller{&token};
  TensorBuffer input = floats({1, 2, 3});
  make_resident(input, Stream{});  // the library's stream
  memory->begin_capture(caller.handle);
  {
    core::BackendRun run(Device::cuda(0), caller);
    run.read(input);  // an external wait node on CUDA: each replay waits for the last write
    run.finish();
  }
  EXPECT_EQ(memory->captured_stream_waits(), 1);
  EXPECT_EQ(memory->end_capture(), 0);
}

TEST(CaptureMemory, AHostReadOfAnOutputIsAViolation) {
  ScopedTestDeviceMemory memory;
  int token = 0;
  const Stream caller{&token};
  TensorBuffer input = floats({1, 2, 3});
  make_resident(input, caller);
  memory->begin_capture(caller.handle);
  TensorBuffer out = TensorBuffer::create_uninitialized(Shape{3}, DataType::kFloat32);
  {
    core::BackendRun run(Device::cuda(0), caller);
    run.read(input);
    run.overwrite(out);
    run.finish();
  }
  EXPECT_THROW(out.host_bytes(), InternalError);
  EXPECT_GE(memory->end_capture(), 1);
}

TEST(CaptureMemory, RejectCaptureRaisesOnlyForABlockedFormOnTheCapturingStream) {
  ScopedTestDeviceMemory memory;
  int token = 0, other = 0;
  const Stream caller{&token};
  EXPECT_NO_THROW(core::reject_capture("op", "why", Device::cuda(0), caller));  // not capturing
  memory->begin_capture(caller.handle);
  try {
    core::reject_capture("substr", "a reason", Device::cuda(0), caller);
    ADD_FAILURE() << "no UnavailableError";
  } catch (const UnavailableError& e) {
    EXPECT_NE(std::string(e.what()).find("substr cannot be captured in a CUDA graph: a reason"),
              std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(core::reject_capture("op", nullptr, Device::cuda(0), caller));
  EXPECT_NO_THROW(core::reject_capture("op", "why", Device::cuda(0), Stream{&other}));
  EXPECT_NO_THROW(core::reject_capture("op", "why", Device::cpu(), caller));
  EXPECT_EQ(memory->end_capture(), 0);  // rejected before anything was enqueued
}

}  // namespace
}  // namespace tensorbuf
