// DataType, Shape, Device and the error hierarchy (api.md, DESIGN.md "Errors").
#include <gtest/gtest.h>

#include <limits>

#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

TEST(DataTypeTest, TypeSizes) {
  EXPECT_EQ(type_size(DataType::kBool), 1u);
  EXPECT_EQ(type_size(DataType::kUInt8), 1u);
  EXPECT_EQ(type_size(DataType::kInt8), 1u);
  EXPECT_EQ(type_size(DataType::kInt16), 2u);
  EXPECT_EQ(type_size(DataType::kInt32), 4u);
  EXPECT_EQ(type_size(DataType::kInt64), 8u);
  EXPECT_EQ(type_size(DataType::kFloat16), 2u);
  EXPECT_EQ(type_size(DataType::kBFloat16), 2u);
  EXPECT_EQ(type_size(DataType::kFloat32), 4u);
  EXPECT_EQ(type_size(DataType::kFloat64), 8u);
}

TEST(DataTypeTest, Names) {
  EXPECT_EQ(to_string(DataType::kBool), "bool");
  EXPECT_EQ(to_string(DataType::kUInt8), "uint8");
  EXPECT_EQ(to_string(DataType::kInt8), "int8");
  EXPECT_EQ(to_string(DataType::kInt16), "int16");
  EXPECT_EQ(to_string(DataType::kInt32), "int32");
  EXPECT_EQ(to_string(DataType::kInt64), "int64");
  EXPECT_EQ(to_string(DataType::kFloat16), "float16");
  EXPECT_EQ(to_string(DataType::kBFloat16), "bfloat16");
  EXPECT_EQ(to_string(DataType::kFloat32), "float32");
  EXPECT_EQ(to_string(DataType::kFloat64), "float64");
}

TEST(ShapeTest, ScalarHasRankZeroAndOneElement) {
  Shape s{};
  EXPECT_EQ(s.rank(), 0);
  EXPECT_EQ(s.num_elements(), 1);
  EXPECT_EQ(s.to_string(), "[]");
}

TEST(ShapeTest, DimsAndElementCount) {
  Shape s{2, 3, 4};
  EXPECT_EQ(s.rank(), 3);
  EXPECT_EQ(s[1], 3);
  EXPECT_EQ(s.num_elements(), 24);
  EXPECT_EQ(s.dims(), (std::vector<std::int64_t>{2, 3, 4}));
  EXPECT_EQ(s.to_string(), "[2,3,4]");
  EXPECT_EQ(Shape(std::vector<std::int64_t>{2, 3, 4}), s);
  EXPECT_NE(Shape({3, 2, 4}), s);
}

TEST(ShapeTest, ZeroDimGivesZeroElements) {
  EXPECT_EQ(Shape({0}).num_elements(), 0);
  EXPECT_EQ(Shape({1, 0, 2}).num_elements(), 0);
  // A zero dim makes the count 0 even when the other dims would overflow.
  EXPECT_EQ(Shape({0, std::numeric_limits<std::int64_t>::max(), 4}).num_elements(), 0);
}

TEST(ShapeTest, NegativeDimRaises) {
  try {
    Shape s{1, -1, 2};
    FAIL() << "no error";
  } catch (const InvalidArgumentError& e) {
    EXPECT_STREQ(e.what(), "Values in TensorBuffer shape should be non-negative.");
  }
}

TEST(ShapeTest, OverflowingElementCountRaises) {
  EXPECT_THROW(Shape({65536, 65536, 65536, 65536}), InvalidArgumentError);
  EXPECT_THROW(Shape({std::numeric_limits<std::int64_t>::max(), 2}), InvalidArgumentError);
  EXPECT_EQ(Shape({std::numeric_limits<std::int64_t>::max(), 1}).num_elements(),
            std::numeric_limits<std::int64_t>::max());
}

TEST(DeviceTest, ConstructionAndNames) {
  EXPECT_FALSE(Device::cpu().is_cuda());
  EXPECT_TRUE(Device::cuda().is_cuda());
  EXPECT_EQ(Device::cuda(1).index, 1);
  EXPECT_EQ(Device::cpu().to_string(), "cpu");
  EXPECT_EQ(Device::cuda(2).to_string(), "cuda:2");
  EXPECT_EQ(Device::cuda(0), Device::cuda());
  EXPECT_NE(Device::cuda(0), Device::cpu());
}

TEST(CudaAvailabilityTest, ReasonMatchesAvailability) {
  const std::string reason = cuda_availability_reason();
  switch (cuda_availability()) {
    case CudaAvailability::kAvailable:
      EXPECT_TRUE(cuda_available());
      EXPECT_GE(cuda_device_count(), 1);
      EXPECT_EQ(reason.rfind("available", 0), 0u) << reason;
      break;
    case CudaAvailability::kNotBuilt:
      EXPECT_EQ(reason.rfind("not built", 0), 0u) << reason;
      break;
    case CudaAvailability::kNoDriver:
      EXPECT_EQ(reason.rfind("no driver", 0), 0u) << reason;
      break;
    case CudaAvailability::kDriverTooOld:
      EXPECT_EQ(reason.rfind("driver too old", 0), 0u) << reason;
      break;
    case CudaAvailability::kNoDevice:
      EXPECT_EQ(reason.rfind("no device", 0), 0u) << reason;
      break;
    case CudaAvailability::kError:
      EXPECT_EQ(reason.rfind("error", 0), 0u) << reason;
      break;
  }
  if (cuda_availability() != CudaAvailability::kAvailable) {
    EXPECT_FALSE(cuda_available());
    EXPECT_EQ(cuda_device_count(), 0);
  }
}

TEST(ErrorTest, HierarchyAndCodes) {
  EXPECT_EQ(InvalidArgumentError("x").code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(OutOfRangeError("x").code(), ErrorCode::kOutOfRange);
  EXPECT_EQ(UnavailableError("x").code(), ErrorCode::kUnavailable);
  EXPECT_EQ(ResourceExhaustedError("x").code(), ErrorCode::kResourceExhausted);
  EXPECT_EQ(InternalError("x").code(), ErrorCode::kInternal);
  EXPECT_EQ(to_string(ErrorCode::kInvalidArgument), "InvalidArgument");
  const Error& base = InvalidArgumentError("message");
  const std::runtime_error& runtime = base;
  EXPECT_STREQ(runtime.what(), "message");
}

TEST(OptionsTest, AreAggregatesWithDeviceFirst) {
  ScatterOptions scatter{.device = Device::cpu()};
  EXPECT_EQ(scatter.out_of_bounds, OutOfBoundsPolicy::kDeviceDefault);
  EXPECT_FALSE(scatter.deterministic);
  BooleanMaskUpdateOptions mask{.device = Device::cpu(), .axis = -1};
  EXPECT_TRUE(mask.broadcast);
  SubstrOptions sub{.device = Device::cpu(), .unit = SubstrUnit::kUtf8Char};
  EXPECT_EQ(sub.stream.handle, nullptr);
}

}  // namespace
}  // namespace tensorbuf
