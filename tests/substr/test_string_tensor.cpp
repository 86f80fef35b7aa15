// StringTensor: construction, validation of raw buffers, access.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "support/error_text.hpp"
#include "support/test_device_memory.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

TensorBuffer int64_buffer(const std::vector<std::int64_t>& values) {
  TensorBuffer out = TensorBuffer::create_fixed_size(
      Shape{static_cast<std::int64_t>(values.size())}, DataType::kInt64);
  std::int64_t* data = out.overwrite_host<std::int64_t>();
  for (std::size_t i = 0; i < values.size(); ++i) data[i] = values[i];
  return out;
}

TensorBuffer uint8_buffer(const std::string& bytes) {
  TensorBuffer out = TensorBuffer::create_fixed_size(Shape{static_cast<std::int64_t>(bytes.size())},
                                                     DataType::kUInt8);
  auto* data = out.overwrite_host<std::uint8_t>();
  for (std::size_t i = 0; i < bytes.size(); ++i) data[i] = static_cast<std::uint8_t>(bytes[i]);
  return out;
}

TEST(StringTensor, DefaultIsEmptyVector) {
  StringTensor t;
  EXPECT_EQ(t.shape(), (Shape{0}));
  EXPECT_EQ(t.size(), 0);
  EXPECT_EQ(t.num_chars(), 0);
  EXPECT_EQ(t.offsets().flat_size(), 1);
  EXPECT_EQ(t.offsets().host<std::int64_t>()[0], 0);
  EXPECT_TRUE(t.to_strings().empty());
}

TEST(StringTensor, FromStringsKeepsShapeAndBytes) {
  const std::vector<std::string> values = {"ten",      "",  std::string("a\0b", 3),
                                           "\xff\x80", "x", "eleven"};
  StringTensor t = StringTensor::from_strings(values, Shape{2, 3});
  EXPECT_EQ(t.shape(), (Shape{2, 3}));
  EXPECT_EQ(t.size(), 6);
  EXPECT_EQ(t.num_chars(), 3 + 0 + 3 + 2 + 1 + 6);
  EXPECT_EQ(t.to_strings(), values);
  for (std::int64_t i = 0; i < 6; ++i) EXPECT_EQ(t.at(i), values[static_cast<std::size_t>(i)]);
  const std::int64_t* off = t.offsets().host<std::int64_t>();
  EXPECT_EQ(std::vector<std::int64_t>(off, off + 7),
            (std::vector<std::int64_t>{0, 3, 3, 6, 8, 9, 15}));
  EXPECT_EQ(t.offsets().data_type(), DataType::kInt64);
  EXPECT_EQ(t.chars().data_type(), DataType::kUInt8);
}

TEST(StringTensor, FromStringViews) {
  const std::string backing = "HelloWorld";
  std::vector<std::string_view> views = {std::string_view(backing).substr(0, 5),
                                         std::string_view(backing).substr(5)};
  StringTensor t = StringTensor::from_strings(views, Shape{2});
  EXPECT_EQ(t.to_strings(), (std::vector<std::string>{"Hello", "World"}));
}

TEST(StringTensor, ScalarAndEmptyShapes) {
  StringTensor scalar = StringTensor::from_strings(std::vector<std::string>{"Hello"}, Shape{});
  EXPECT_EQ(scalar.shape(), Shape{});
  EXPECT_EQ(scalar.size(), 1);
  EXPECT_EQ(scalar.at(0), "Hello");
  StringTensor empty = StringTensor::from_strings(std::vector<std::string>{}, Shape{2, 0, 3});
  EXPECT_EQ(empty.size(), 0);
  EXPECT_EQ(empty.shape(), (Shape{2, 0, 3}));
  EXPECT_TRUE(empty.to_strings().empty());
  StringTensor all_empty = StringTensor::from_strings(std::vector<std::string>{"", ""}, Shape{2});
  EXPECT_EQ(all_empty.num_chars(), 0);
  EXPECT_EQ(all_empty.at(1), "");
  EXPECT_EQ(all_empty.to_strings(), (std::vector<std::string>{"", ""}));
}

TEST(StringTensor, FromStringsCountMismatchIsInvalidArgument) {
  EXPECT_THROW(StringTensor::from_strings(std::vector<std::string>{"a", "b"}, Shape{3}),
               InvalidArgumentError);
  EXPECT_THROW(StringTensor::from_strings(std::vector<std::string>{"a"}, Shape{}).at(1),
               OutOfRangeError);
}

TEST(StringTensor, AtOutsideIsOutOfRange) {
  StringTensor t = StringTensor::from_strings(std::vector<std::string>{"a", "b"}, Shape{2});
  EXPECT_THROW(t.at(2), OutOfRangeError);
  EXPECT_THROW(t.at(-1), OutOfRangeError);
}

TEST(StringTensor, FromBuffersAcceptsValidLayout) {
  StringTensor t =
      StringTensor::from_buffers(int64_buffer({0, 5, 5, 10}), uint8_buffer("HelloWorld"), Shape{3});
  EXPECT_EQ(t.to_strings(), (std::vector<std::string>{"Hello", "", "World"}));
  StringTensor empty = StringTensor::from_buffers(int64_buffer({0}), uint8_buffer(""), Shape{0});
  EXPECT_EQ(empty.size(), 0);
  StringTensor dynamic_chars = StringTensor::from_buffers(
      int64_buffer({0, 0}), TensorBuffer::create_dynamic(DataType::kUInt8), Shape{1, 1});
  EXPECT_EQ(dynamic_chars.at(0), "");
}

TEST(StringTensor, FromBuffersRejectsNonMonotonicOffsets) {
  EXPECT_EQ(testing::invalid_argument_text([] {
              StringTensor::from_buffers(int64_buffer({0, 6, 5, 10}), uint8_buffer("HelloWorld"),
                                         Shape{3});
            }),
            "StringTensor offsets must be non-decreasing, got 6 then 5 at index 2");
}

TEST(StringTensor, FromBuffersRejectsWrongOffsetCount) {
  EXPECT_EQ(
      testing::invalid_argument_text([] {
        StringTensor::from_buffers(int64_buffer({0, 5, 10}), uint8_buffer("HelloWorld"), Shape{3});
      }),
      "StringTensor of shape [3] needs 3 + 1 offsets, got 3");
  EXPECT_EQ(testing::invalid_argument_text([] {
              StringTensor::from_buffers(int64_buffer({0, 5, 5, 10, 10}),
                                         uint8_buffer("HelloWorld"), Shape{3});
            }),
            "StringTensor of shape [3] needs 3 + 1 offsets, got 5");
  EXPECT_EQ(testing::invalid_argument_text([] {
              StringTensor::from_buffers(TensorBuffer::create_dynamic(DataType::kInt64),
                                         uint8_buffer(""), Shape{0});
            }),
            "StringTensor of shape [0] needs 0 + 1 offsets, got 0");
}

TEST(StringTensor, FromBuffersRejectsOffsetsNotStartingAtZero) {
  EXPECT_EQ(testing::invalid_argument_text([] {
              StringTensor::from_buffers(int64_buffer({1, 5, 5, 10}), uint8_buffer("HelloWorld"),
                                         Shape{3});
            }),
            "StringTensor offsets must start at 0, got 1");
  EXPECT_EQ(testing::invalid_argument_text([] {
              StringTensor::from_buffers(int64_buffer({-1, 5, 5, 10}), uint8_buffer("HelloWorld"),
                                         Shape{3});
            }),
            "StringTensor offsets must start at 0, got -1");
}

TEST(StringTensor, FromBuffersRejectsLastOffsetNotCharsSize) {
  EXPECT_EQ(testing::invalid_argument_text([] {
              StringTensor::from_buffers(int64_buffer({0, 5, 5, 9}), uint8_buffer("HelloWorld"),
                                         Shape{3});
            }),
            "the last StringTensor offset must equal the chars size 10, got 9");
  EXPECT_EQ(testing::invalid_argument_text([] {
              StringTensor::from_buffers(int64_buffer({0, 5, 5, 11}), uint8_buffer("HelloWorld"),
                                         Shape{3});
            }),
            "the last StringTensor offset must equal the chars size 10, got 11");
}

TEST(StringTensor, FromBuffersRejectsWrongDtypes) {
  EXPECT_EQ(testing::invalid_argument_text([] {
              StringTensor::from_buffers(
                  TensorBuffer::create_fixed_size(Shape{2}, DataType::kInt32), uint8_buffer(""),
                  Shape{1});
            }),
            "StringTensor offsets must be int64, got int32");
  EXPECT_EQ(testing::invalid_argument_text([] {
              StringTensor::from_buffers(int64_buffer({0, 0}),
                                         TensorBuffer::create_fixed_size(Shape{0}, DataType::kInt8),
                                         Shape{1});
            }),
            "StringTensor chars must be uint8, got int8");
  EXPECT_EQ(testing::invalid_argument_text([] {
              StringTensor::from_buffers(int64_buffer({0, 0}),
                                         TensorBuffer::create_fixed_size(Shape{0}, DataType::kBool),
                                         Shape{1});
            }),
            "StringTensor chars must be uint8, got bool");
}

TEST(StringTensor, FromBuffersReferencingCallerBytes) {
  // The .npy loader's path: chars referencing caller memory, zero-copy.
  const std::string bytes = "abcdef";
  TensorBuffer chars = TensorBuffer::create_dynamic(DataType::kUInt8);
  chars.load_buffer(std::as_bytes(std::span(bytes.data(), bytes.size())),
                    Shape{static_cast<std::int64_t>(bytes.size())});
  StringTensor t = StringTensor::from_buffers(int64_buffer({0, 2, 6}), std::move(chars), Shape{2});
  EXPECT_EQ(t.to_strings(), (std::vector<std::string>{"ab", "cdef"}));
}

TEST(StringTensor, SyncsBothBuffersThroughTestDeviceMemory) {
  testing::ScopedTestDeviceMemory memory;
  StringTensor t = StringTensor::from_strings(std::vector<std::string>{"ab", "cde"}, Shape{2});
  EXPECT_EQ(t.residence(), Device::cpu());
  t.sync_to(Device::cuda(0));
  EXPECT_TRUE(t.is_valid_on(Device::cuda(0)));
  EXPECT_TRUE(t.is_valid_on(Device::cpu()));
  EXPECT_EQ(memory->uploads(), 2);
  EXPECT_EQ(t.to_strings(), (std::vector<std::string>{"ab", "cde"}));
}

TEST(StringTensor, MovesKeepContents) {
  StringTensor a = StringTensor::from_strings(std::vector<std::string>{"x", "yz"}, Shape{2});
  StringTensor b = std::move(a);
  EXPECT_EQ(b.to_strings(), (std::vector<std::string>{"x", "yz"}));
  StringTensor c;
  c = std::move(b);
  EXPECT_EQ(c.at(1), "yz");
}

}  // namespace
}  // namespace tensorbuf
