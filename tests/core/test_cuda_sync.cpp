// The CUDA side of lazy sync: real copies, pinned host storage, streams and events, the caching
// pool. Every test here skips where no GPU is usable (fails with TENSORBUF_REQUIRE_CUDA=1).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/buffer_access.hpp"
#include "core/storage.hpp"
#include "support/devices.hpp"
#include "tensorbuf/tensorbuf.hpp"

#if defined(TENSORBUF_WITH_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tensorbuf {
namespace {

class CUDASyncTest : public ::testing::Test {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(Device::cuda()); }
  static TensorBuffer make(std::vector<float> values) {
    TensorBuffer b = TensorBuffer::create_fixed_size({static_cast<std::int64_t>(values.size())},
                                                     DataType::kFloat32);
    b.load_array(values);
    return b;
  }
};

#if defined(TENSORBUF_WITH_CUDA)

TEST_F(CUDASyncTest, RoundTripCopiesOnlyStaleSides) {
  TensorBuffer b = make({1, 2, 3, 4});
  reset_stats();
  b.sync_to(Device::cuda());
  EXPECT_EQ(stats().host_to_device_copies, 1);
  b.sync_to(Device::cuda());
  EXPECT_EQ(stats().host_to_device_copies, 1);
  float* d = b.mutable_device<float>();
  const float fresh[4] = {10, 20, 30, 40};
  ASSERT_EQ(cudaMemcpy(d, fresh, sizeof fresh, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_FALSE(b.is_valid_on(Device::cpu()));
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{10, 20, 30, 40}));
  EXPECT_EQ(stats().device_to_host_copies, 1);
  EXPECT_EQ(stats().host_to_device_copies, 1);
}

TEST_F(CUDASyncTest, HostStorageIsPinned) {
  TensorBuffer b = make({1, 2});
  cudaPointerAttributes attributes{};
  ASSERT_EQ(cudaPointerGetAttributes(&attributes, b.host<float>()), cudaSuccess);
  EXPECT_EQ(attributes.type, cudaMemoryTypeHost);
}

TEST_F(CUDASyncTest, OverwriteDeviceCopiesNothing) {
  TensorBuffer b = make({1, 2});
  reset_stats();
  float* d = b.overwrite_device<float>();
  ASSERT_EQ(cudaMemset(d, 0, 2 * sizeof(float)), cudaSuccess);
  EXPECT_EQ(stats().host_to_device_copies, 0);
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{0, 0}));
}

TEST_F(CUDASyncTest, CallerStreamWorkIsOrderedBeforeHostRead) {
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  {
    // The buffer frees its device memory in order on the last stream that used it, so it
    // must be gone before that stream is destroyed (docs/tensor_buffer.md).
    TensorBuffer b = TensorBuffer::create_fixed_size({1 << 20}, DataType::kUInt8);
    core::Storage& s = core::BufferAccess::storage(b);
    void* d = s.device_write(0, stream, /*keep_contents=*/false);
    ASSERT_EQ(cudaMemsetAsync(d, 7, 1 << 20, stream), cudaSuccess);
    s.finish_device_use(stream);
    const std::uint8_t* h = b.host<std::uint8_t>();  // downloads on the stream that wrote
    EXPECT_EQ(h[0], 7);
    EXPECT_EQ(h[(1 << 20) - 1], 7);
  }
  cudaStreamDestroy(stream);
}

// Each op with a caller's non-blocking stream (api.md: `stream` in every options struct), on
// inputs the stream itself wrote last: results exact, read back after the stream's work.
TEST_F(CUDASyncTest, OpsRunOnTheCallersStream) {
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  {
    const Device cuda = Device::cuda();
    // tensor = [3, 3, 3, 3], written by the caller's stream only (host copy stale).
    TensorBuffer tensor = make({0, 0, 0, 0});
    core::Storage& storage = core::BufferAccess::storage(tensor);
    void* d = storage.device_write(0, stream, /*keep_contents=*/false);
    const float threes[4] = {3, 3, 3, 3};
    ASSERT_EQ(cudaMemcpyAsync(d, threes, sizeof threes, cudaMemcpyHostToDevice, stream),
              cudaSuccess);
    storage.finish_device_use(stream);

    TensorBuffer indices = TensorBuffer::create_fixed_size({2, 1}, DataType::kInt64);
    indices.load_array(std::vector<std::int32_t>{1, 3});
    TensorBuffer updates = make({10, 20});
    const ScatterOptions scatter{.device = cuda, .stream = Stream{stream}};
    EXPECT_EQ(tensor_scatter_nd_sub(tensor, indices, updates, scatter).get_float_array(),
              (std::vector<float>{3, -7, 3, -17}));

    TensorBuffer mask = TensorBuffer::create_fixed_size({4}, DataType::kBool);
    mask.load_array(std::vector<std::int32_t>{1, 0, 0, 1});
    const BooleanMaskUpdateOptions masked{.device = cuda, .stream = Stream{stream}};
    EXPECT_EQ(boolean_mask_update(tensor, mask, make({5, 6}), masked).get_float_array(),
              (std::vector<float>{5, 3, 3, 6}));
    boolean_mask_update_in_place(tensor, mask, make({8}), masked);
    EXPECT_EQ(tensor.get_float_array(), (std::vector<float>{8, 3, 3, 8}));

    StringTensor in = StringTensor::from_strings({"Hello", "W\xc3\xb6rld"}, Shape{2});
    TensorBuffer pos = TensorBuffer::create_fixed_size({}, DataType::kInt32);
    pos.load_array(std::vector<std::int32_t>{1});
    TensorBuffer len = TensorBuffer::create_fixed_size({}, DataType::kInt32);
    len.load_array(std::vector<std::int32_t>{3});
    const SubstrOptions sliced{
        .device = cuda, .unit = SubstrUnit::kUtf8Char, .stream = Stream{stream}};
    EXPECT_EQ(substr(in, pos, len, sliced).to_strings(),
              (std::vector<std::string>{"ell", "\xc3\xb6rl"}));
  }
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  cudaStreamDestroy(stream);
}

TEST_F(CUDASyncTest, SteadyStateAllocatesNothing) {
  for (int round = 0; round < 2; ++round) {
    if (round == 1) reset_stats();
    TensorBuffer b = make(std::vector<float>(1 << 16, 1.0f));
    b.sync_to(Device::cuda());
    b.get_float_array();
  }
  EXPECT_EQ(stats().device_allocations, 0);
  EXPECT_EQ(stats().pinned_host_allocations, 0);
}

TEST_F(CUDASyncTest, LargeRoundTripIsExact) {
  std::vector<float> v(1 << 22);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
  TensorBuffer b = make(v);
  b.sync_to(Device::cuda());
  b.overwrite_host<float>()[0] = -1;  // device copy now stale
  b.sync_to(Device::cuda());
  std::vector<float> back(v.size());
  ASSERT_EQ(
      cudaMemcpy(back.data(), b.device<float>(), v.size() * sizeof(float), cudaMemcpyDeviceToHost),
      cudaSuccess);
  EXPECT_EQ(back[0], -1.0f);
  EXPECT_EQ(back[12345], 12345.0f);
}

#else

TEST_F(CUDASyncTest, BuiltWithoutCuda) { GTEST_SKIP() << "built without CUDA"; }

#endif

}  // namespace
}  // namespace tensorbuf
