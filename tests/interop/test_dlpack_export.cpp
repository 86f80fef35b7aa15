// to_dlpack / to_dlpack_versioned (docs/interop.md, I2): zero-copy, the export keeps the memory
// alive, read-only and bool rules, the exported side becomes the home.
#include <gtest/gtest.h>

#if __has_include(<dlpack/dlpack.h>)
#include <dlpack/dlpack.h>  // the system header first: tensorbuf's must add only what it lacks
#endif

#include <cstring>
#include <vector>

#include "support/test_device_memory.hpp"
#include "tensorbuf/dlpack.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

TensorBuffer floats(std::vector<float> values, Shape shape) {
  TensorBuffer b = TensorBuffer::create_fixed_size(shape, DataType::kFloat32);
  b.load_array(values);
  return b;
}

TEST(DLPackExport, LegacyIsZeroCopyWithShapeStridesAndDtype) {
  TensorBuffer b = floats({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  DLManagedTensor* t = to_dlpack(b);
  EXPECT_EQ(t->dl_tensor.data, b.host_bytes());
  EXPECT_EQ(t->dl_tensor.device.device_type, kDLCPU);
  EXPECT_EQ(t->dl_tensor.ndim, 2);
  EXPECT_EQ(t->dl_tensor.shape[0], 2);
  EXPECT_EQ(t->dl_tensor.shape[1], 3);
  EXPECT_EQ(t->dl_tensor.strides[0], 3);
  EXPECT_EQ(t->dl_tensor.strides[1], 1);
  EXPECT_EQ(t->dl_tensor.byte_offset, 0u);
  EXPECT_EQ(t->dl_tensor.dtype.code, kDLFloat);
  EXPECT_EQ(t->dl_tensor.dtype.bits, 32);
  EXPECT_EQ(t->dl_tensor.dtype.lanes, 1);
  t->deleter(t);
}

TEST(DLPackExport, TheCapsuleOutlivesItsBuffer) {
  DLManagedTensorVersioned* t = nullptr;
  {
    TensorBuffer b = floats({7, 8}, Shape{2});
    t = to_dlpack_versioned(b);
  }
  const float* data = static_cast<const float*>(t->dl_tensor.data);
  EXPECT_EQ(data[0], 7.0f);  // ASan would flag a freed buffer
  EXPECT_EQ(data[1], 8.0f);
  t->deleter(t);
}

TEST(DLPackExport, VersionedCarriesVersionAndFlags) {
  TensorBuffer b = floats({1}, Shape{1});
  DLManagedTensorVersioned* t = to_dlpack_versioned(b);
  EXPECT_EQ(t->version.major, 1u);
  EXPECT_EQ(t->version.minor, 0u);
  EXPECT_EQ(t->flags, 0u);
  t->deleter(t);
  DLPackExportOptions read_only;
  read_only.read_only = true;
  t = to_dlpack_versioned(b, read_only);
  EXPECT_EQ(t->flags, DLPACK_FLAG_BITMASK_READ_ONLY);
  t->deleter(t);
}

TEST(DLPackExport, ReadOnlyBuffersExportOnlyVersionedWithTheFlag) {
  const float data[2] = {1, 2};
  const TensorBuffer borrowed = TensorBuffer::borrow(static_cast<const void*>(data), Shape{2},
                                                     DataType::kFloat32, Device::cpu());
  EXPECT_THROW(to_dlpack(borrowed), InvalidArgumentError);
  DLManagedTensorVersioned* t = to_dlpack_versioned(borrowed);
  EXPECT_EQ(t->flags & DLPACK_FLAG_BITMASK_READ_ONLY, DLPACK_FLAG_BITMASK_READ_ONLY);
  EXPECT_EQ(t->dl_tensor.data, data);
  t->deleter(t);
  // Bytes referenced by load_buffer are the caller's: read-only too.
  TensorBuffer referenced = TensorBuffer::create_dynamic(DataType::kFloat32);
  referenced.load_buffer(std::as_bytes(std::span(data)), Shape{2});
  EXPECT_THROW(to_dlpack(referenced), InvalidArgumentError);
  t = to_dlpack_versioned(referenced);
  EXPECT_EQ(t->flags, DLPACK_FLAG_BITMASK_READ_ONLY);
  t->deleter(t);
}

TEST(DLPackExport, BoolIsVersionedOnly) {
  TensorBuffer mask = TensorBuffer::create_fixed_size(Shape{3}, DataType::kBool);
  EXPECT_THROW(to_dlpack(mask), InvalidArgumentError);
  DLManagedTensorVersioned* t = to_dlpack_versioned(mask);
  EXPECT_EQ(t->dl_tensor.dtype.code, static_cast<std::uint8_t>(kDLBool));
  EXPECT_EQ(t->dl_tensor.dtype.bits, 8);
  t->deleter(t);
}

TEST(DLPackExport, EveryDataTypeHasItsCode) {
  struct Case { DataType type; std::uint8_t code; std::uint8_t bits; };
  const Case cases[] = {
      {DataType::kUInt8, kDLUInt, 8},     {DataType::kInt8, kDLInt, 8},
      {DataType::kInt16, kDLInt, 16},     {DataType::kInt32, kDLInt, 32},
      {DataType::kInt64, kDLInt, 64},     {DataType::kFloat16, kDLFloat, 16},
      {DataType::kBFloat16, kDLBfloat, 16}, {DataType::kFloat32, kDLFloat, 32},
      {DataType::kFloat64, kDLFloat, 64}};
  for (const Case& c : cases) {
    TensorBuffer b = TensorBuffer::create_fixed_size(Shape{2}, c.type);
    DLManagedTensor* t = to_dlpack(b);
    EXPECT_EQ(t->dl_tensor.dtype.code, c.code) << to_string(c.type);
    EXPECT_EQ(t->dl_tensor.dtype.bits, c.bits) << to_string(c.type);
    t->deleter(t);
  }
}

TEST(DLPackExport, ALiveExportPinsTheMemory) {
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat32);
  b.load_array(std::vector<float>{1, 2}, Shape{2});
  DLManagedTensor* t = to_dlpack(b);
  EXPECT_THROW(b.load_array(std::vector<float>{1, 2, 3}, Shape{3}), InvalidArgumentError);
  const std::byte raw[8] = {};
  EXPECT_THROW(b.load_buffer(raw, Shape{2}), InvalidArgumentError);
  b.load_array(std::vector<float>{5, 6}, Shape{2});  // same size: written in place
  EXPECT_EQ(static_cast<const float*>(t->dl_tensor.data)[1], 6.0f);
  EXPECT_THROW(b.evict(Device::cpu()), InvalidArgumentError);
  t->deleter(t);
  b.load_array(std::vector<float>{1, 2, 3}, Shape{3});  // free to move again
  EXPECT_EQ(b.flat_size(), 3);
}

TEST(DLPackExport, ScalarAndEmptyTensors) {
  TensorBuffer scalar = floats({3}, Shape{});
  DLManagedTensor* t = to_dlpack(scalar);
  EXPECT_EQ(t->dl_tensor.ndim, 0);
  EXPECT_EQ(*static_cast<const float*>(t->dl_tensor.data), 3.0f);
  t->deleter(t);
  TensorBuffer empty = TensorBuffer::create_fixed_size(Shape{0, 4}, DataType::kInt32);
  t = to_dlpack(empty);
  EXPECT_EQ(t->dl_tensor.shape[0], 0);
  EXPECT_EQ(t->dl_tensor.shape[1], 4);
  t->deleter(t);
}

class DLPackDeviceExportTest : public ::testing::Test {
 protected:
  testing::ScopedTestDeviceMemory memory_;
};

TEST_F(DLPackDeviceExportTest, DeviceResidentExportsTheDevicePointerAndBecomesTheHome) {
  TensorBuffer b = floats({1, 2}, Shape{2});
  float* d = b.mutable_device<float>();
  DLManagedTensor* t = to_dlpack(b);
  EXPECT_EQ(t->dl_tensor.data, d);
  EXPECT_EQ(t->dl_tensor.device.device_type, kDLCUDA);
  EXPECT_EQ(t->dl_tensor.device.device_id, 0);
  EXPECT_EQ(b.get_float_value(0), 1.0f);
  static_cast<float*>(t->dl_tensor.data)[0] = 10;  // the consumer writes the device memory
  EXPECT_EQ(b.get_float_value(0), 10.0f);          // the host mirror is not trusted
  t->deleter(t);
  EXPECT_EQ(b.residence(), Device::cpu());  // no home any more: both sides valid
}

TEST_F(DLPackDeviceExportTest, HostExportDropsTheDeviceMirror) {
  TensorBuffer b = floats({1, 2}, Shape{2});
  b.sync_to(Device::cuda(0));
  DLManagedTensor* t = to_dlpack(b);
  EXPECT_FALSE(b.is_valid_on(Device::cuda(0)));
  static_cast<float*>(t->dl_tensor.data)[1] = 20;
  EXPECT_EQ(b.device<float>()[1], 20.0f);  // uploaded from the home again
  t->deleter(t);
}

}  // namespace
}  // namespace tensorbuf
