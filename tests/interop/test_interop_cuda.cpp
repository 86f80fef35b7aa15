// The stream contract (docs/interop.md, I5) on a real GPU: a race detector whose unordered
// controls must see stale data (so the ordered cases can fail), export to a consumer stream,
// and a stream-ordered release with cudaFreeAsync (scripts/gpu_check.sh runs these under
// compute-sanitizer). Every test skips where no GPU is usable.
#include <gtest/gtest.h>

#include <vector>

#include "support/devices.hpp"
#include "tensorbuf/dlpack.hpp"
#include "tensorbuf/tensorbuf.hpp"

#if defined(TENSORBUF_WITH_CUDA)
#include <cuda_runtime_api.h>

#include "cuda_spin.hpp"
#endif

namespace tensorbuf {
namespace {

class CUDAInteropTest : public ::testing::Test {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(Device::cuda()); }
};

#if defined(TENSORBUF_WITH_CUDA)

constexpr std::int64_t kN = 1024;
constexpr int kSpinMs = 200;  // far longer than the host needs to enqueue the op

// The caller's non-blocking stream and memory that holds zeros when the test starts.
struct CallerMemory {
  CallerMemory() {
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    cudaMalloc(reinterpret_cast<void**>(&data), kN * sizeof(float));
    cudaMemset(data, 0, kN * sizeof(float));
    cudaDeviceSynchronize();
  }
  ~CallerMemory() {
    cudaDeviceSynchronize();
    cudaFree(data);
    cudaStreamDestroy(stream);
  }
  float* data = nullptr;
  cudaStream_t stream = nullptr;
};

// The op under test: adds 1 to element 0 and returns the result's element 0 (host read).
float add_one_at_zero(const TensorBuffer& b) {
  TensorBuffer indices = TensorBuffer::create_fixed_size(Shape{1, 1}, DataType::kInt32);
  TensorBuffer updates = TensorBuffer::create_fixed_size(Shape{1}, DataType::kFloat32);
  updates.load_array(std::vector<float>{1});
  ScatterOptions options;
  options.device = Device::cuda(0);
  return tensor_scatter_nd_add(b, indices, updates, options).get_float_value(0);
}

TEST_F(CUDAInteropTest, ReadyStreamOrdersTheOpAfterTheCallersWrite) {
  CallerMemory memory;
  testing::spin_then_fill(memory.data, kN, 7.0f, kSpinMs, memory.stream);
  BorrowOptions options;
  options.ready_stream = Stream{memory.stream};
  reset_stats();
  TensorBuffer b = TensorBuffer::borrow(memory.data, Shape{kN}, DataType::kFloat32,
                                        Device::cuda(0), options);
  EXPECT_EQ(add_one_at_zero(b), 8.0f);
}

TEST_F(CUDAInteropTest, WaitForOrdersTheOpAfterTheCallersWrite) {
  CallerMemory memory;
  TensorBuffer b = TensorBuffer::borrow(memory.data, Shape{kN}, DataType::kFloat32,
                                        Device::cuda(0));
  testing::spin_then_fill(memory.data, kN, 7.0f, kSpinMs, memory.stream);
  b.wait_for(Stream{memory.stream});
  EXPECT_EQ(add_one_at_zero(b), 8.0f);
}

TEST_F(CUDAInteropTest, UnorderedControlSeesStaleData) {
  // Without ready_stream the op does not wait for the caller's stream: it reads the zeros.
  // If this control ever sees 8, the two tests above prove nothing on this machine.
  CallerMemory memory;
  testing::spin_then_fill(memory.data, kN, 7.0f, kSpinMs, memory.stream);
  TensorBuffer b = TensorBuffer::borrow(memory.data, Shape{kN}, DataType::kFloat32,
                                        Device::cuda(0));
  EXPECT_EQ(add_one_at_zero(b), 1.0f);
}

TEST_F(CUDAInteropTest, ExportMakesTheConsumerStreamWaitForTheLastWrite) {
  CallerMemory producer;  // its stream writes the buffer, late
  CallerMemory consumer;  // its stream reads the export
  TensorBuffer b = TensorBuffer::create_fixed_size(Shape{kN}, DataType::kFloat32);
  float* d = b.mutable_device<float>();
  cudaDeviceSynchronize();
  testing::spin_then_fill(d, kN, 5.0f, kSpinMs, producer.stream);
  b.wait_for(Stream{producer.stream});  // tensorbuf's view: written on that stream
  TensorBuffer indices = TensorBuffer::create_fixed_size(Shape{1, 1}, DataType::kInt32);
  TensorBuffer updates = TensorBuffer::create_fixed_size(Shape{1}, DataType::kFloat32);
  updates.load_array(std::vector<float>{1});
  tensor_scatter_nd_add_in_place(b, indices, updates);  // last write: 6 at element 0
  DLPackExportOptions options;
  options.consumer_stream = Stream{consumer.stream};
  DLManagedTensorVersioned* t = to_dlpack_versioned(b, options);
  testing::copy_floats(consumer.data, static_cast<const float*>(t->dl_tensor.data), kN,
                       consumer.stream);
  cudaStreamSynchronize(consumer.stream);
  float first = 0;
  cudaMemcpy(&first, consumer.data, sizeof first, cudaMemcpyDeviceToHost);
  EXPECT_EQ(first, 6.0f);
  t->deleter(t);
}

TEST_F(CUDAInteropTest, ExportWithoutConsumerStreamControlSeesStaleData) {
  CallerMemory producer;
  CallerMemory consumer;
  TensorBuffer b = TensorBuffer::create_fixed_size(Shape{kN}, DataType::kFloat32);
  float* d = b.mutable_device<float>();
  cudaDeviceSynchronize();
  testing::spin_then_fill(d, kN, 5.0f, kSpinMs, producer.stream);
  b.wait_for(Stream{producer.stream});
  DLManagedTensorVersioned* t = to_dlpack_versioned(b);  // no consumer stream: no ordering
  testing::copy_floats(consumer.data, static_cast<const float*>(t->dl_tensor.data), kN,
                       consumer.stream);
  cudaStreamSynchronize(consumer.stream);
  float first = -1;
  cudaMemcpy(&first, consumer.data, sizeof first, cudaMemcpyDeviceToHost);
  EXPECT_EQ(first, 0.0f);
  t->deleter(t);
}

TEST_F(CUDAInteropTest, ReleaseFreesInStreamOrderWithoutAHostWait) {
  cudaStream_t owner = nullptr;
  cudaStreamCreateWithFlags(&owner, cudaStreamNonBlocking);
  float* data = nullptr;
  ASSERT_EQ(cudaMallocAsync(reinterpret_cast<void**>(&data), kN * sizeof(float), owner),
            cudaSuccess);
  cudaMemsetAsync(data, 0, kN * sizeof(float), owner);
  int releases = 0;
  BorrowOptions options;
  options.ready_stream = Stream{owner};
  options.release = [&](Stream last_use) {
    // Stream-ordered free: after tensorbuf's last use, on the owner's stream.
    cudaEvent_t done = nullptr;
    cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
    cudaEventRecord(done, static_cast<cudaStream_t>(last_use.handle));
    cudaStreamWaitEvent(owner, done, 0);
    cudaEventDestroy(done);
    cudaFreeAsync(data, owner);
    releases++;
  };
  {
    TensorBuffer b = TensorBuffer::borrow(data, Shape{kN}, DataType::kFloat32, Device::cuda(0),
                                          options);
    TensorBuffer indices = TensorBuffer::create_fixed_size(Shape{1, 1}, DataType::kInt32);
    TensorBuffer updates = TensorBuffer::create_fixed_size(Shape{1}, DataType::kFloat32);
    updates.load_array(std::vector<float>{3});
    indices.sync_to(Device::cuda(0));
    updates.sync_to(Device::cuda(0));
    reset_stats();
    tensor_scatter_nd_add_in_place(b, indices, updates);
  }
  EXPECT_EQ(releases, 1);
  EXPECT_EQ(stats().host_waits, 0);
  EXPECT_EQ(cudaStreamSynchronize(owner), cudaSuccess);
  cudaStreamDestroy(owner);
}

TEST_F(CUDAInteropTest, ImportedCudaCapsuleIsDeviceResidentAndWrittenInPlace) {
  TensorBuffer owner = TensorBuffer::create_fixed_size(Shape{kN}, DataType::kFloat32);
  owner.mutable_device<float>();  // device-only: the export is the device copy
  TensorBuffer imported = from_dlpack(to_dlpack_versioned(owner));
  EXPECT_EQ(imported.residence(), Device::cuda(0));
  TensorBuffer indices = TensorBuffer::create_fixed_size(Shape{1, 1}, DataType::kInt32);
  TensorBuffer updates = TensorBuffer::create_fixed_size(Shape{1}, DataType::kFloat32);
  updates.load_array(std::vector<float>{2});
  tensor_scatter_nd_add_in_place(imported, indices, updates);
  EXPECT_EQ(owner.get_float_value(0), 2.0f);
}

#endif  // TENSORBUF_WITH_CUDA

}  // namespace
}  // namespace tensorbuf
