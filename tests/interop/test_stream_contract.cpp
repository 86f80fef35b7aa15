// The stream contract (docs/interop.md, I5) with fake stream handles: which waits and records
// happen, in which order, and that none of them blocks the host.
#include <gtest/gtest.h>

#include <vector>

#include "core/backend_run.hpp"
#include "support/interop_helpers.hpp"
#include "support/test_device_memory.hpp"
#include "tensorbuf/dlpack.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::ReleaseLog;
using testing::ScopedTestDeviceMemory;
using testing::TraceEntry;
using Kind = TraceEntry::Kind;

int producer_token, consumer_token, caller_token;
void* const kProducer = &producer_token;  // the owner's stream
void* const kConsumer = &consumer_token;  // a DLPack consumer's stream
void* const kCaller = &caller_token;      // the stream an op is given

class StreamContractTest : public ::testing::Test {
 protected:
  // An op's device run on `stream` that reads `buffer` (what every op does first).
  void read_on(void* stream, const TensorBuffer& buffer) {
    core::BackendRun run(Device::cuda(0), Stream{stream});
    run.read(buffer);
    run.finish();
  }
  void write_on(void* stream, TensorBuffer& buffer) {
    core::BackendRun run(Device::cuda(0), Stream{stream});
    run.mutate(buffer);
    run.finish();
  }
  std::vector<float> values_ = {1, 2, 3, 4};
  ScopedTestDeviceMemory memory_;
};

TEST_F(StreamContractTest, BorrowWaitsOnTheReadyStreamWithAnEventNeverTheHost) {
  BorrowOptions options;
  options.ready_stream = Stream{kProducer};
  TensorBuffer b = TensorBuffer::borrow(values_.data(), Shape{4}, DataType::kFloat32,
                                        Device::cuda(0), options);
  read_on(kCaller, b);
  const std::vector<TraceEntry> expected = {
      {Kind::kRecord, kProducer, 1},    // borrow: the data is ready after the producer's work
      {Kind::kStreamWait, kCaller, 1},  // the op's stream waits for it
      {Kind::kRecord, kCaller, 2},      // the op's use, for later users
  };
  EXPECT_EQ(memory_->trace(), expected);
  EXPECT_EQ(memory_->host_waits(), 0);
  memory_->clear_trace();
  read_on(kCaller, b);  // the producer's event was consumed: no second wait
  EXPECT_EQ(memory_->trace(), (std::vector<TraceEntry>{{Kind::kRecord, kCaller, 2}}));
}

TEST_F(StreamContractTest, WaitForOrdersTheNextUseAfterTheOwnersWrite) {
  TensorBuffer b = TensorBuffer::borrow(values_.data(), Shape{4}, DataType::kFloat32,
                                        Device::cuda(0));
  read_on(kCaller, b);
  memory_->clear_trace();
  b.wait_for(Stream{kProducer});
  write_on(kCaller, b);
  const std::vector<TraceEntry> expected = {
      {Kind::kRecord, kProducer, 2},
      {Kind::kStreamWait, kCaller, 2},
      {Kind::kRecord, kCaller, 1},
  };
  EXPECT_EQ(memory_->trace(), expected);
  EXPECT_EQ(memory_->host_waits(), 0);
}

TEST_F(StreamContractTest, AHostReadOfDeviceHomeWaitsOnTheStreamBeforeTheDownload) {
  TensorBuffer b = TensorBuffer::borrow(values_.data(), Shape{4}, DataType::kFloat32,
                                        Device::cuda(0));
  b.wait_for(Stream{kProducer});
  EXPECT_EQ(b.get_float_value(3), 4.0f);
  void* library = memory_->default_stream(0);
  const std::vector<TraceEntry> expected = {
      {Kind::kRecord, kProducer, 1},
      {Kind::kStreamWait, library, 1},
      {Kind::kDownload, library, 0},  // a download is a host wait by nature
  };
  EXPECT_EQ(memory_->trace(), expected);
}

TEST_F(StreamContractTest, ExportToAConsumerStreamWaitsBothWays) {
  TensorBuffer b = TensorBuffer::create_fixed_size(Shape{4}, DataType::kFloat32);
  write_on(kCaller, b);  // device-resident, last written on kCaller (event 1)
  memory_->clear_trace();
  DLPackExportOptions options;
  options.consumer_stream = Stream{kConsumer};
  DLManagedTensorVersioned* capsule = to_dlpack_versioned(b, options);
  EXPECT_EQ(capsule->dl_tensor.device.device_type, kDLCUDA);
  std::vector<TraceEntry> expected = {
      {Kind::kStreamWait, kConsumer, 1},  // the consumer waits on the last write
      {Kind::kRecord, kConsumer, 2},      // the consumer's work so far...
  };
  EXPECT_EQ(memory_->trace(), expected);
  memory_->clear_trace();
  read_on(kCaller, b);
  expected = {
      {Kind::kStreamWait, kCaller, 2},  // ...is waited on by tensorbuf's next use
      {Kind::kRecord, kCaller, 1},
  };
  EXPECT_EQ(memory_->trace(), expected);
  capsule->deleter(capsule);
  EXPECT_EQ(memory_->host_waits(), 0);
}

TEST_F(StreamContractTest, ImportOrdersTheProducerStreamBeforeTheDeleter) {
  static std::vector<TraceEntry> trace_at_delete;
  static testing::TestDeviceMemory* memory;
  memory = &memory_.get();
  DLManagedTensor capsule{};
  std::int64_t shape[1] = {4};
  capsule.dl_tensor.data = values_.data();
  capsule.dl_tensor.device = DLDevice{kDLCUDA, 0};
  capsule.dl_tensor.ndim = 1;
  capsule.dl_tensor.dtype = DLDataType{kDLFloat, 32, 1};
  capsule.dl_tensor.shape = shape;
  capsule.deleter = [](DLManagedTensor*) { trace_at_delete = memory->trace(); };
  {
    DLPackImportOptions options;
    options.stream = Stream{kProducer};
    TensorBuffer b = from_dlpack(&capsule, options);
    write_on(kCaller, b);
  }
  const std::vector<TraceEntry> expected = {
      {Kind::kRecord, kProducer, 1},    // import: ready after the producer's work
      {Kind::kStreamWait, kCaller, 1},  // the op waits for it
      {Kind::kRecord, kCaller, 2},      // the op's last use
      {Kind::kStreamWait, kProducer, 2},  // the producer's stream waits for it: then the deleter
  };
  EXPECT_EQ(trace_at_delete, expected);
  EXPECT_EQ(memory_->host_waits(), 0);
}

TEST_F(StreamContractTest, ReleaseGetsTheLastUseStreamWithoutAHostWait) {
  ReleaseLog log;
  {
    BorrowOptions options;
    options.release = log.callback();
    TensorBuffer b = TensorBuffer::borrow(values_.data(), Shape{4}, DataType::kFloat32,
                                          Device::cuda(0), options);
    read_on(kProducer, b);
    write_on(kCaller, b);
  }
  EXPECT_EQ(log.calls(), 1);
  EXPECT_EQ(log.last_stream(), kCaller);
  EXPECT_EQ(memory_->host_waits(), 0);
  EXPECT_EQ(memory_->live_events(), 0);
}

}  // namespace
}  // namespace tensorbuf
