// TensorBuffer: every rule and vector of spec/tensor_buffer.md (TB1-TB21), for every dtype.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

const std::vector<DataType> kAllTypes = {
    DataType::kBool,    DataType::kUInt8,    DataType::kInt8,    DataType::kInt16,
    DataType::kInt32,   DataType::kInt64,    DataType::kFloat16, DataType::kBFloat16,
    DataType::kFloat32, DataType::kFloat64};

std::span<const std::byte> bytes_of(const std::vector<float>& v) {
  return std::as_bytes(std::span<const float>(v));
}

// Rule 1.
TEST(TensorBufferTest, CreateDynamicHasShapeZero) {
  for (DataType type : kAllTypes) {
    TensorBuffer b = TensorBuffer::create_dynamic(type);
    EXPECT_EQ(b.shape(), Shape({0}));
    EXPECT_EQ(b.flat_size(), 0);
    EXPECT_TRUE(b.is_dynamic());
    EXPECT_EQ(b.data_type(), type);
    EXPECT_TRUE(b.get_float_array().empty());
  }
}

// TB1.
TEST(TensorBufferTest, CreateFixedSizeIsZeroFilled) {
  TensorBuffer b = TensorBuffer::create_fixed_size({2, 3}, DataType::kFloat32);
  EXPECT_EQ(b.flat_size(), 6);
  EXPECT_EQ(b.shape(), Shape({2, 3}));
  EXPECT_EQ(b.type_size(), 4u);
  EXPECT_FALSE(b.is_dynamic());
  EXPECT_EQ(b.get_float_array(), std::vector<float>(6, 0.0f));
  for (DataType type : kAllTypes) {
    TensorBuffer t = TensorBuffer::create_fixed_size({5}, type);
    EXPECT_EQ(t.get_int_array(), std::vector<std::int32_t>(5, 0)) << to_string(type);
    EXPECT_EQ(t.size_bytes(), 5 * type_size(type));
  }
}

// TB2.
TEST(TensorBufferTest, ScalarAndEmptyShapes) {
  EXPECT_EQ(TensorBuffer::create_fixed_size({}, DataType::kUInt8).flat_size(), 1);
  EXPECT_EQ(TensorBuffer::create_fixed_size({0}, DataType::kUInt8).flat_size(), 0);
  EXPECT_EQ(TensorBuffer::create_fixed_size({1, 0, 2}, DataType::kFloat32).flat_size(), 0);
}

// TB3.
TEST(TensorBufferTest, NegativeDimRaises) {
  try {
    TensorBuffer::create_fixed_size(Shape(std::vector<std::int64_t>{1, -1, 2}), DataType::kFloat32);
    FAIL();
  } catch (const InvalidArgumentError& e) {
    EXPECT_STREQ(e.what(), "Values in TensorBuffer shape should be non-negative.");
  }
}

// TB16 and the byte-count half of rule 2.
TEST(TensorBufferTest, OverflowingCountsRaise) {
  EXPECT_THROW(TensorBuffer::create_fixed_size({65536, 65536, 65536, 65536}, DataType::kFloat32),
               InvalidArgumentError);
  // The element count fits in int64, the byte count does not.
  EXPECT_THROW(TensorBuffer::create_fixed_size({std::int64_t{1} << 62}, DataType::kFloat32),
               InvalidArgumentError);
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat64);
  EXPECT_THROW(b.load_buffer({}, Shape({std::int64_t{1} << 61})), InvalidArgumentError);
}

// TB4 and rule 9 (float -> uint8).
TEST(TensorBufferTest, FloatToUInt8ClampsThenTruncates) {
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kUInt8);
  std::vector<float> v = {400.32f, -23.04f, 254.9f, 0.5f, kNaN, kInf, -kInf, 128.0f};
  b.load_array(v, {8});
  EXPECT_EQ(b.get_int_array(), (std::vector<std::int32_t>{255, 0, 254, 0, 0, 255, 0, 128}));
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{255, 0, 254, 0, 0, 255, 0, 128}));
  b.load_array(std::vector<float>{0.7f, 255.99f, -0.99f}, {3});
  EXPECT_EQ(b.get_int_array(), (std::vector<std::int32_t>{0, 255, 0}));
}

// TB5.
TEST(TensorBufferTest, IntToUInt8Clamps) {
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kUInt8);
  b.load_array(std::vector<std::int32_t>{400, -23, 128, 255, 256}, {5});
  EXPECT_EQ(b.get_int_array(), (std::vector<std::int32_t>{255, 0, 128, 255, 255}));
}

// TB6.
TEST(TensorBufferTest, FloatBufferReadsAsTruncatedInts) {
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat32);
  b.load_array(std::vector<float>{500.1f, -2.7f, 2.5f, kNaN}, {4});
  EXPECT_EQ(b.get_int_array(), (std::vector<std::int32_t>{500, -2, 2, 0}));
  EXPECT_EQ(b.get_int_value(1), -2);
  EXPECT_EQ(b.get_float_value(0), 500.1f);
}

// TB7.
TEST(TensorBufferTest, IntToFloatRoundsToNearestEven) {
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat32);
  b.load_array(std::vector<std::int32_t>{16777217, -3}, {2});
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{16777216.0f, -3.0f}));
}

// TB8 and rule 7: a failed load leaves everything as it was.
TEST(TensorBufferTest, FixedSizeRejectsOtherShapeAndStaysUnchanged) {
  TensorBuffer b = TensorBuffer::create_fixed_size({2, 3}, DataType::kFloat32);
  b.load_array(std::vector<float>{1, 2, 3, 4, 5, 6});
  try {
    b.load_array(std::vector<float>{9, 9, 9, 9, 9, 9}, {3, 2});
    FAIL();
  } catch (const InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("[2,3]"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("[3,2]"), std::string::npos) << e.what();
  }
  EXPECT_EQ(b.shape(), Shape({2, 3}));
  EXPECT_FALSE(b.is_dynamic());
  EXPECT_EQ(b.data_type(), DataType::kFloat32);
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

// TB9 and rule 5's message.
TEST(TensorBufferTest, WrongCountRaises) {
  TensorBuffer b = TensorBuffer::create_fixed_size({2, 3}, DataType::kFloat32);
  try {
    b.load_array(std::vector<float>{1, 2});
    FAIL();
  } catch (const InvalidArgumentError& e) {
    EXPECT_STREQ(e.what(), "The size of the array to be loaded does not match the specified shape.");
  }
  EXPECT_EQ(b.get_float_array(), std::vector<float>(6, 0.0f));
}

// TB10 and rule 6.
TEST(TensorBufferTest, DynamicBufferTakesNewShapes) {
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat32);
  EXPECT_THROW(b.load_array(std::vector<float>{1, 2, 3}), InvalidArgumentError);  // shape {0}
  b.load_array(std::vector<float>{1, 2, 3}, {3});
  EXPECT_EQ(b.shape(), Shape({3}));
  b.load_array(std::vector<float>{1, 2, 3, 4, 5}, {5});
  EXPECT_EQ(b.shape(), Shape({5}));
  b.load_array(std::vector<float>{5, 4, 3, 2, 1});
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{5, 4, 3, 2, 1}));
  EXPECT_THROW(b.load_array(std::vector<float>{3, 2, 1}), InvalidArgumentError);
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{5, 4, 3, 2, 1}));
  EXPECT_TRUE(b.is_dynamic());
  b.load_array(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3});  // same bytes? no: 24 vs 20
  EXPECT_EQ(b.shape(), Shape({2, 3}));
  b.load_array(std::vector<float>{6, 5, 4, 3, 2, 1}, {3, 2});  // same byte size, new shape
  EXPECT_EQ(b.shape(), Shape({3, 2}));
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{6, 5, 4, 3, 2, 1}));
}

// Rule 5: negative dims raise when loading too.
TEST(TensorBufferTest, LoadWithNegativeDimRaises) {
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat32);
  EXPECT_THROW(b.load_array(std::vector<float>{1}, Shape(std::vector<std::int64_t>{-1})),
               InvalidArgumentError);
}

// TB11 and rule 8's message.
TEST(TensorBufferTest, LoadBufferChecksByteCount) {
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat32);
  std::vector<std::byte> two(2);
  try {
    b.load_buffer(two, {1});
    FAIL();
  } catch (const InvalidArgumentError& e) {
    EXPECT_STREQ(e.what(), "The size of byte buffer and the shape do not match. Expected: 4 Actual: 2");
  }
  EXPECT_EQ(b.shape(), Shape({0}));
}

// Rule 8: fixed-size buffers require their own shape for load_buffer too.
TEST(TensorBufferTest, LoadBufferOnFixedSizeRequiresSameShape) {
  TensorBuffer b = TensorBuffer::create_fixed_size({2, 2}, DataType::kFloat32);
  std::vector<float> v = {1, 2, 3, 4};
  EXPECT_THROW(b.load_buffer(bytes_of(v), {4}), InvalidArgumentError);
  b.load_buffer(bytes_of(v));
  EXPECT_EQ(b.get_float_array(), v);
}

// TB12 and TB21: zero-copy until the first write, which copies; caller bytes never written.
TEST(TensorBufferTest, LoadBufferIsZeroCopyUntilFirstWrite) {
  std::vector<float> caller = {7, 8, 9};
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat32);
  b.load_buffer(bytes_of(caller), {3});
  EXPECT_EQ(b.host<float>(), caller.data());
  EXPECT_EQ(b.get_float_array(), caller);
  b.load_array(std::vector<float>{1, 2, 3});
  EXPECT_NE(b.host<float>(), caller.data());
  EXPECT_EQ(caller, (std::vector<float>{7, 8, 9}));
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{1, 2, 3}));
}

TEST(TensorBufferTest, MutableHostCopiesReferencedBytesFirst) {
  std::vector<float> caller = {7, 8, 9};
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat32);
  b.load_buffer(bytes_of(caller), {3});
  float* p = b.mutable_host<float>();
  EXPECT_NE(p, caller.data());
  EXPECT_EQ(p[1], 8.0f);  // contents kept
  p[1] = 80.0f;
  EXPECT_EQ(caller[1], 8.0f);
  EXPECT_EQ(b.get_float_value(1), 80.0f);
}

TEST(TensorBufferTest, OverwriteHostDoesNotTouchCallerBytes) {
  std::vector<float> caller = {7, 8};
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat32);
  b.load_buffer(bytes_of(caller), {2});
  float* p = b.overwrite_host<float>();
  EXPECT_NE(p, caller.data());
  p[0] = 1;
  p[1] = 2;
  EXPECT_EQ(caller, (std::vector<float>{7, 8}));
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{1, 2}));
}

// TB13.
TEST(TensorBufferTest, CreateFromConvertsAndKeepsFixedFlag) {
  TensorBuffer src = TensorBuffer::create_fixed_size({2}, DataType::kFloat32);
  src.load_array(std::vector<float>{254.9f, -3.5f});
  TensorBuffer b = TensorBuffer::create_from(src, DataType::kUInt8);
  EXPECT_FALSE(b.is_dynamic());
  EXPECT_EQ(b.data_type(), DataType::kUInt8);
  EXPECT_EQ(b.shape(), Shape({2}));
  EXPECT_EQ(b.get_int_array(), (std::vector<std::int32_t>{254, 0}));
}

// TB14.
TEST(TensorBufferTest, CreateFromKeepsDynamicFlag) {
  TensorBuffer src = TensorBuffer::create_dynamic(DataType::kUInt8);
  src.load_array(std::vector<std::int32_t>{1, 2, 255}, {3});
  TensorBuffer b = TensorBuffer::create_from(src, DataType::kFloat32);
  EXPECT_TRUE(b.is_dynamic());
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{1, 2, 255}));
  EXPECT_NE(b.host<float>(), nullptr);
}

TEST(TensorBufferTest, CloneIsDeep) {
  TensorBuffer a = TensorBuffer::create_fixed_size({3}, DataType::kInt16);
  a.load_array(std::vector<std::int32_t>{1, -2, 3});
  TensorBuffer c = a.clone();
  a.mutable_host<std::int16_t>()[0] = 100;
  EXPECT_EQ(c.get_int_array(), (std::vector<std::int32_t>{1, -2, 3}));
  EXPECT_EQ(c.data_type(), DataType::kInt16);
  EXPECT_FALSE(c.is_dynamic());
}

// TB15 and rule 10.
TEST(TensorBufferTest, ValueIndexOutOfRangeRaises) {
  TensorBuffer b = TensorBuffer::create_fixed_size({6}, DataType::kFloat32);
  EXPECT_THROW(b.get_float_value(-1), OutOfRangeError);
  EXPECT_THROW(b.get_float_value(6), OutOfRangeError);
  EXPECT_THROW(b.get_int_value(6), OutOfRangeError);
  EXPECT_EQ(b.get_float_value(5), 0.0f);
}

// TB17.
TEST(TensorBufferTest, Float16LoadRoundsToNearestEven) {
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat16);
  b.load_array(std::vector<float>{1 + std::ldexp(1.0f, -11), 1 + 3 * std::ldexp(1.0f, -11), 65519,
                                  65520, -65520},
               {5});
  EXPECT_EQ(b.get_float_array(),
            (std::vector<float>{1, 1 + std::ldexp(1.0f, -9), 65504, kInf, -kInf}));
  EXPECT_EQ(b.type_size(), 2u);
}

// TB18.
TEST(TensorBufferTest, BFloat16LoadRoundsToNearestEven) {
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kBFloat16);
  b.load_array(std::vector<float>{1 + std::ldexp(1.0f, -8), 1 + 3 * std::ldexp(1.0f, -8)}, {2});
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{1, 1 + std::ldexp(1.0f, -6)}));
}

// TB19.
TEST(TensorBufferTest, NarrowIntegersSaturate) {
  TensorBuffer i8 = TensorBuffer::create_dynamic(DataType::kInt8);
  i8.load_array(std::vector<std::int32_t>{200, -200, 5}, {3});
  EXPECT_EQ(i8.get_int_array(), (std::vector<std::int32_t>{127, -128, 5}));
  TensorBuffer i64 = TensorBuffer::create_fixed_size({1}, DataType::kInt64);
  i64.mutable_host<std::int64_t>()[0] = std::int64_t{1} << 40;
  EXPECT_EQ(i64.get_int_value(0), 2147483647);
  i64.mutable_host<std::int64_t>()[0] = -(std::int64_t{1} << 40);
  EXPECT_EQ(i64.get_int_value(0), -2147483647 - 1);
  EXPECT_EQ(i64.get_float_value(0), -1099511627776.0f);
}

// TB20 and rule 11.
TEST(TensorBufferTest, BoolIsNonzeroByte) {
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kBool);
  b.load_array(std::vector<float>{0.0f, -0.0f, kNaN, 0.5f}, {4});
  EXPECT_EQ(b.get_int_array(), (std::vector<std::int32_t>{0, 0, 1, 1}));
  std::vector<std::byte> raw = {std::byte{0}, std::byte{2}};
  b.load_buffer(raw, {2});
  EXPECT_EQ(b.get_int_array(), (std::vector<std::int32_t>{0, 1}));
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{0, 1}));
  // Converting a raw nonzero byte to another type gives 1, not 2.
  EXPECT_EQ(TensorBuffer::create_from(b, DataType::kInt32).get_int_array(),
            (std::vector<std::int32_t>{0, 1}));
  EXPECT_EQ(b.host<std::uint8_t>()[1], 2);  // the byte itself is kept
}

// Rule 9 in full: float -> every integer type truncates and saturates, NaN -> 0.
TEST(TensorBufferTest, FloatToIntegerSaturatesForEveryType) {
  struct Case {
    DataType type;
    std::int32_t low, high;
  };
  for (Case c : {Case{DataType::kInt8, -128, 127}, Case{DataType::kInt16, -32768, 32767},
                 Case{DataType::kInt32, std::numeric_limits<std::int32_t>::min(),
                      std::numeric_limits<std::int32_t>::max()},
                 Case{DataType::kInt64, std::numeric_limits<std::int32_t>::min(),
                      std::numeric_limits<std::int32_t>::max()},
                 Case{DataType::kUInt8, 0, 255}}) {
    TensorBuffer b = TensorBuffer::create_dynamic(c.type);
    b.load_array(std::vector<float>{1e30f, -1e30f, kNaN, kInf, -kInf, -7.9f, 7.9f}, {7});
    EXPECT_EQ(b.get_int_array(),
              (std::vector<std::int32_t>{c.high, c.low, 0, c.high, c.low, c.low == 0 ? 0 : -7, 7}))
        << to_string(c.type);
  }
  TensorBuffer i64 = TensorBuffer::create_dynamic(DataType::kInt64);
  i64.load_array(std::vector<float>{1e30f, -1e30f}, {2});
  EXPECT_EQ(i64.host<std::int64_t>()[0], std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(i64.host<std::int64_t>()[1], std::numeric_limits<std::int64_t>::min());
}

TEST(TensorBufferTest, FloatTypesReadBackExactly) {
  for (DataType type : {DataType::kFloat16, DataType::kBFloat16, DataType::kFloat32,
                        DataType::kFloat64}) {
    TensorBuffer b = TensorBuffer::create_dynamic(type);
    b.load_array(std::vector<float>{-2.5f, 0.0f, 100.0f}, {3});
    EXPECT_EQ(b.get_float_array(), (std::vector<float>{-2.5f, 0.0f, 100.0f})) << to_string(type);
    EXPECT_EQ(b.get_int_array(), (std::vector<std::int32_t>{-2, 0, 100})) << to_string(type);
  }
}

TEST(TensorBufferTest, TypedAccessorChecksElementType) {
  TensorBuffer b = TensorBuffer::create_fixed_size({2}, DataType::kFloat32);
  EXPECT_THROW(b.host<double>(), InvalidArgumentError);
  EXPECT_THROW(b.mutable_host<std::int32_t>(), InvalidArgumentError);
  TensorBuffer flags = TensorBuffer::create_fixed_size({2}, DataType::kBool);
  EXPECT_NO_THROW(flags.host<std::uint8_t>());
}

TEST(TensorBufferTest, DeviceAccessWithoutCudaRaisesUnavailable) {
  if (cuda_available()) GTEST_SKIP() << "a CUDA device is present";
  TensorBuffer b = TensorBuffer::create_fixed_size({2}, DataType::kFloat32);
  EXPECT_THROW(b.device<float>(), UnavailableError);
  EXPECT_THROW(b.sync_to(Device::cuda()), UnavailableError);
  EXPECT_TRUE(b.is_valid_on(Device::cpu()));
  EXPECT_FALSE(b.is_valid_on(Device::cuda()));
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{0, 0}));
}

TEST(TensorBufferTest, UninitializedBufferReadsAsZerosBeforeAnyWrite) {
  TensorBuffer b = TensorBuffer::create_uninitialized({3}, DataType::kInt32);
  EXPECT_FALSE(b.is_dynamic());
  EXPECT_EQ(b.get_int_array(), (std::vector<std::int32_t>{0, 0, 0}));
}

TEST(TensorBufferTest, MoveLeavesUsableBuffer) {
  TensorBuffer a = TensorBuffer::create_fixed_size({2}, DataType::kInt32);
  a.load_array(std::vector<std::int32_t>{4, 5});
  TensorBuffer b = std::move(a);
  EXPECT_EQ(b.get_int_array(), (std::vector<std::int32_t>{4, 5}));
  TensorBuffer c = TensorBuffer::create_dynamic(DataType::kUInt8);
  c = std::move(b);
  EXPECT_EQ(c.data_type(), DataType::kInt32);
  EXPECT_EQ(c.get_int_array(), (std::vector<std::int32_t>{4, 5}));
}

TEST(TensorBufferTest, LargeConversionIsMultithreadedAndExact) {
  // Enough elements for several chunks of the thread pool.
  const int n = 1 << 20;
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(i % 600) - 100.5f;
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kUInt8);
  b.load_array(v, {n});
  const std::uint8_t* p = b.host<std::uint8_t>();
  for (int i = 0; i < n; ++i) {
    const float x = v[i];
    const int expected = x <= 0 ? 0 : x >= 255 ? 255 : static_cast<int>(x);
    ASSERT_EQ(p[i], expected) << i;
  }
}

}  // namespace
}  // namespace tensorbuf
