// from_dlpack (docs/interop.md, I2): zero-copy import, the deleter called exactly once (also on
// every error), contiguity, dtypes, flags, devices.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "dlpack_capsules.hpp"
#include "support/test_device_memory.hpp"
#include "tensorbuf/dlpack.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::kF32;
using testing::LegacyCapsule;
using testing::VersionedCapsule;

TEST(DLPackImport, ZeroCopyAndTheDeleterRunsOnceWhenTheBufferIsGone) {
  std::vector<float> data = {1, 2, 3, 4, 5, 6};
  LegacyCapsule capsule(data.data(), {2, 3}, kF32);
  {
    TensorBuffer b = from_dlpack(capsule.get());
    EXPECT_EQ(b.host<float>(), data.data());
    EXPECT_EQ(b.shape(), (Shape{2, 3}));
    EXPECT_TRUE(b.is_borrowed());
    EXPECT_FALSE(b.is_read_only());
    // In place, the capsule's memory itself is written.
    TensorBuffer indices = TensorBuffer::create_fixed_size(Shape{1, 2}, DataType::kInt32);
    indices.load_array(std::vector<std::int32_t>{1, 2});
    TensorBuffer updates = TensorBuffer::create_fixed_size(Shape{1}, DataType::kFloat32);
    updates.load_array(std::vector<float>{60});
    tensor_scatter_nd_update_in_place(b, indices, updates);
    EXPECT_EQ(data[5], 60.0f);
    EXPECT_EQ(capsule.deleter_calls, 0);
  }
  EXPECT_EQ(capsule.deleter_calls, 1);
}

TEST(DLPackImport, RoundTripThroughOurOwnExportIsZeroCopy) {
  TensorBuffer original = TensorBuffer::create_fixed_size(Shape{3}, DataType::kInt64);
  original.load_array(std::vector<std::int32_t>{4, 5, 6});
  const void* data = original.host_bytes();
  TensorBuffer imported = from_dlpack(to_dlpack_versioned(original));
  EXPECT_EQ(imported.host_bytes(), data);
  original = TensorBuffer::create_dynamic(DataType::kInt64);  // the export keeps the memory
  EXPECT_EQ(imported.get_int_array(), (std::vector<std::int32_t>{4, 5, 6}));
}

TEST(DLPackImport, VersionedReadOnlyFlagMakesAReadOnlyBuffer) {
  std::vector<float> data = {1, 2};
  VersionedCapsule capsule(data.data(), {2}, kF32);
  capsule.managed.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  TensorBuffer b = from_dlpack(capsule.get());
  EXPECT_TRUE(b.is_read_only());
  EXPECT_THROW(b.mutable_host<float>(), InvalidArgumentError);
  EXPECT_EQ(data, (std::vector<float>{1, 2}));
}

TEST(DLPackImport, AnotherMajorVersionIsRefusedAndDeleted) {
  std::vector<float> data = {1};
  VersionedCapsule capsule(data.data(), {1}, kF32);
  capsule.managed.version = DLPackVersion{2, 0};
  EXPECT_THROW(from_dlpack(capsule.get()), InvalidArgumentError);
  EXPECT_EQ(capsule.deleter_calls, 1);
  VersionedCapsule minor(data.data(), {1}, kF32);
  minor.managed.version = DLPackVersion{1, 3};  // a newer minor version is fine
  from_dlpack(minor.get());
  EXPECT_EQ(minor.deleter_calls, 1);
}

TEST(DLPackImport, ByteOffsetIsHonoured) {
  std::vector<float> data = {0, 0, 7, 8};
  LegacyCapsule capsule(data.data(), {2}, kF32);
  capsule.managed.dl_tensor.byte_offset = 8;
  TensorBuffer b = from_dlpack(capsule.get());
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{7, 8}));
  EXPECT_EQ(b.host<float>(), data.data() + 2);
}

TEST(DLPackImport, StridesOfSizeOneDimsAreIgnoredAndNonContiguousIsRefused) {
  std::vector<float> data(6, 1.0f);
  LegacyCapsule size_one(data.data(), {1, 6}, kF32);
  size_one.set_strides({999, 1});
  EXPECT_EQ(from_dlpack(size_one.get()).flat_size(), 6);
  LegacyCapsule contiguous(data.data(), {2, 3}, kF32);
  contiguous.set_strides({3, 1});
  EXPECT_EQ(from_dlpack(contiguous.get()).shape(), (Shape{2, 3}));
  LegacyCapsule transposed(data.data(), {3, 2}, kF32);
  transposed.set_strides({1, 3});
  EXPECT_THROW(from_dlpack(transposed.get()), InvalidArgumentError);
  EXPECT_EQ(transposed.deleter_calls, 1);
  LegacyCapsule every_other(data.data(), {3}, kF32);
  every_other.set_strides({2});
  EXPECT_THROW(from_dlpack(every_other.get()), InvalidArgumentError);
  EXPECT_EQ(every_other.deleter_calls, 1);
}

TEST(DLPackImport, BoolAndUint8Masks) {
  std::vector<std::uint8_t> bytes = {1, 0, 1};
  VersionedCapsule bool_capsule(bytes.data(), {3}, DLDataType{static_cast<std::uint8_t>(kDLBool), 8, 1});
  TensorBuffer mask = from_dlpack(bool_capsule.get());
  EXPECT_EQ(mask.data_type(), DataType::kBool);
  LegacyCapsule u8(bytes.data(), {3}, DLDataType{kDLUInt, 8, 1});
  EXPECT_EQ(from_dlpack(u8.get()).data_type(), DataType::kUInt8);
  LegacyCapsule as_bool(bytes.data(), {3}, DLDataType{kDLUInt, 8, 1});
  DLPackImportOptions options;
  options.as_bool = true;
  TensorBuffer torch_mask = from_dlpack(as_bool.get(), options);
  EXPECT_EQ(torch_mask.data_type(), DataType::kBool);
  // Used as a mask directly.
  std::vector<float> values = {1, 2, 3};
  LegacyCapsule tensor_capsule(values.data(), {3}, kF32);
  TensorBuffer tensor = from_dlpack(tensor_capsule.get());
  TensorBuffer updates = TensorBuffer::create_fixed_size(Shape{}, DataType::kFloat32);
  boolean_mask_update_in_place(tensor, torch_mask, updates);
  EXPECT_EQ(values, (std::vector<float>{0, 2, 0}));
}

TEST(DLPackImport, EveryDtypeCodeMapsOrIsRefusedWithTheDeleterCalled) {
  std::vector<std::uint64_t> data(2, 0);
  struct Case { DLDataType dtype; DataType expected; };
  const Case ok[] = {
      {{kDLInt, 8, 1}, DataType::kInt8},       {{kDLInt, 16, 1}, DataType::kInt16},
      {{kDLInt, 32, 1}, DataType::kInt32},     {{kDLInt, 64, 1}, DataType::kInt64},
      {{kDLUInt, 8, 1}, DataType::kUInt8},     {{kDLFloat, 16, 1}, DataType::kFloat16},
      {{kDLFloat, 32, 1}, DataType::kFloat32}, {{kDLFloat, 64, 1}, DataType::kFloat64},
      {{kDLBfloat, 16, 1}, DataType::kBFloat16}};
  for (const Case& c : ok) {
    LegacyCapsule capsule(data.data(), {1}, c.dtype);
    EXPECT_EQ(from_dlpack(capsule.get()).data_type(), c.expected);
    EXPECT_EQ(capsule.deleter_calls, 1);
  }
  const DLDataType refused[] = {{kDLUInt, 16, 1}, {kDLUInt, 64, 1}, {kDLFloat, 8, 1},
                                {kDLComplex, 64, 1}, {kDLFloat, 32, 4}, {kDLBfloat, 32, 1},
                                {kDLOpaqueHandle, 64, 1}, {static_cast<std::uint8_t>(kDLBool), 32, 1}};
  for (const DLDataType& dtype : refused) {
    LegacyCapsule capsule(data.data(), {1}, dtype);
    EXPECT_THROW(from_dlpack(capsule.get()), InvalidArgumentError);
    EXPECT_EQ(capsule.deleter_calls, 1);
  }
}

TEST(DLPackImport, ZeroSizeAndNullData) {
  LegacyCapsule empty(nullptr, {0, 3}, kF32);
  EXPECT_EQ(from_dlpack(empty.get()).flat_size(), 0);
  EXPECT_EQ(empty.deleter_calls, 1);
  LegacyCapsule null_data(nullptr, {2}, kF32);
  EXPECT_THROW(from_dlpack(null_data.get()), InvalidArgumentError);
  EXPECT_EQ(null_data.deleter_calls, 1);
}

TEST(DLPackImport, BadShapesDevicesAndAlignmentAreRefusedWithTheDeleterCalled) {
  alignas(8) float data[4] = {};
  LegacyCapsule negative(data, {-1}, kF32);
  EXPECT_THROW(from_dlpack(negative.get()), InvalidArgumentError);
  EXPECT_EQ(negative.deleter_calls, 1);
  LegacyCapsule opencl(data, {1}, kF32, DLDevice{kDLOpenCL, 0});
  EXPECT_THROW(from_dlpack(opencl.get()), InvalidArgumentError);
  EXPECT_EQ(opencl.deleter_calls, 1);
  LegacyCapsule misaligned(data, {1}, kF32);
  misaligned.managed.dl_tensor.byte_offset = 2;
  EXPECT_THROW(from_dlpack(misaligned.get()), InvalidArgumentError);
  EXPECT_EQ(misaligned.deleter_calls, 1);
  LegacyCapsule huge(data, {std::int64_t{1} << 40, std::int64_t{1} << 40}, kF32);
  EXPECT_THROW(from_dlpack(huge.get()), InvalidArgumentError);
  EXPECT_EQ(huge.deleter_calls, 1);
  EXPECT_THROW(from_dlpack(static_cast<DLManagedTensor*>(nullptr)), InvalidArgumentError);
}

TEST(DLPackImport, CudaHostMemoryIsHostMemory) {
  float data[1] = {5};
  LegacyCapsule pinned(data, {1}, kF32, DLDevice{kDLCUDAHost, 0});
  TensorBuffer b = from_dlpack(pinned.get());
  EXPECT_EQ(b.residence(), Device::cpu());
  EXPECT_EQ(b.get_float_value(0), 5.0f);
}

TEST(DLPackImport, ACudaCapsuleWithoutCudaIsUnavailableAndDeleted) {
  if (cuda_available()) GTEST_SKIP() << "CUDA is available here";
  float data[1] = {};
  VersionedCapsule capsule(data, {1}, kF32, DLDevice{kDLCUDA, 0});
  EXPECT_THROW(from_dlpack(capsule.get()), UnavailableError);
  EXPECT_EQ(capsule.deleter_calls, 1);
}

TEST(DLPackImport, ACudaCapsuleIsDeviceResident) {
  testing::ScopedTestDeviceMemory memory;
  std::vector<float> device_data = {1, 2};
  LegacyCapsule capsule(device_data.data(), {2}, kF32, DLDevice{kDLCUDA, 0});
  {
    TensorBuffer b = from_dlpack(capsule.get());
    EXPECT_EQ(b.residence(), Device::cuda(0));
    EXPECT_EQ(b.device<float>(), device_data.data());
    EXPECT_EQ(b.get_float_array(), device_data);
  }
  EXPECT_EQ(capsule.deleter_calls, 1);
}

}  // namespace
}  // namespace tensorbuf
