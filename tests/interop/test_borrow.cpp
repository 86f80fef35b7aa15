// TensorBuffer::borrow over host memory (docs/interop.md, I1): in-place ops write the caller's
// memory with no allocation and no copy, read-only memory is never written, release runs once.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "support/interop_helpers.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::ReleaseLog;

TEST(Borrow, HostMemoryIsTheBufferWithNoCopy) {
  std::vector<float> data = {1, 2, 3, 4, 5, 6};
  TensorBuffer b = TensorBuffer::borrow(data.data(), Shape{2, 3}, DataType::kFloat32,
                                        Device::cpu());
  EXPECT_TRUE(b.is_borrowed());
  EXPECT_FALSE(b.is_read_only());
  EXPECT_FALSE(b.is_dynamic());
  EXPECT_EQ(b.shape(), (Shape{2, 3}));
  EXPECT_EQ(b.host<float>(), data.data());
  EXPECT_EQ(b.mutable_host<float>(), data.data());
  EXPECT_EQ(b.bytes_on(Device::cpu()), 24u);
  EXPECT_EQ(b.bytes_on(Device::cuda()), 0u);
  EXPECT_EQ(b.get_float_value(4), 5.0f);
}

TEST(Borrow, InPlaceScatterWritesCallerMemoryWithoutAllocationOrCopy) {
  std::vector<float> data(16, 1.0f);
  TensorBuffer table = TensorBuffer::borrow(data.data(), Shape{16}, DataType::kFloat32,
                                            Device::cpu());
  TensorBuffer indices = TensorBuffer::create_fixed_size(Shape{3, 1}, DataType::kInt32);
  indices.load_array(std::vector<std::int32_t>{0, 5, 15});
  TensorBuffer updates = TensorBuffer::create_fixed_size(Shape{3}, DataType::kFloat32);
  updates.load_array(std::vector<float>{10, 20, 30});
  reset_stats();
  tensor_scatter_nd_add_in_place(table, indices, updates);
  const Stats s = stats();
  EXPECT_EQ(s.host_allocations, 0);
  EXPECT_EQ(s.pinned_host_allocations, 0);
  EXPECT_EQ(s.device_allocations, 0);
  EXPECT_EQ(s.host_to_device_copies + s.device_to_host_copies, 0);
  EXPECT_EQ(data[0], 11.0f);
  EXPECT_EQ(data[5], 21.0f);
  EXPECT_EQ(data[15], 31.0f);
  EXPECT_EQ(data[1], 1.0f);
  EXPECT_EQ(table.host<float>(), data.data());
}

TEST(Borrow, InPlaceMaskUpdateWritesCallerMemory) {
  std::vector<std::int32_t> data = {1, 2, 3, 4};
  std::vector<std::uint8_t> mask_bytes = {1, 0, 0, 1};
  TensorBuffer tensor = TensorBuffer::borrow(data.data(), Shape{4}, DataType::kInt32,
                                             Device::cpu());
  const TensorBuffer mask = TensorBuffer::borrow(
      static_cast<const void*>(mask_bytes.data()), Shape{4}, DataType::kBool, Device::cpu());
  TensorBuffer updates = TensorBuffer::create_fixed_size(Shape{2}, DataType::kInt32);
  updates.load_array(std::vector<std::int32_t>{-7, -9});
  reset_stats();
  boolean_mask_update_in_place(tensor, mask, updates);
  EXPECT_EQ(stats().host_allocations, 0);
  EXPECT_EQ(data, (std::vector<std::int32_t>{-7, 2, 3, -9}));
}

TEST(Borrow, OutOfPlaceOpReadsBorrowedMemoryAndLeavesIt) {
  std::vector<float> data = {1, 2, 3, 4};
  const TensorBuffer tensor = TensorBuffer::borrow(static_cast<const void*>(data.data()),
                                                   Shape{4}, DataType::kFloat32, Device::cpu());
  TensorBuffer indices = TensorBuffer::create_fixed_size(Shape{1, 1}, DataType::kInt64);
  indices.load_array(std::vector<std::int32_t>{2});
  TensorBuffer updates = TensorBuffer::create_fixed_size(Shape{1}, DataType::kFloat32);
  updates.load_array(std::vector<float>{5});
  const TensorBuffer out = tensor_scatter_nd_sub(tensor, indices, updates);
  EXPECT_EQ(out.get_float_array(), (std::vector<float>{1, 2, -2, 4}));
  EXPECT_EQ(data, (std::vector<float>{1, 2, 3, 4}));
  EXPECT_FALSE(out.is_borrowed());
}

TEST(Borrow, ReadOnlyRejectsEveryWriteAndLeavesTheBytes) {
  std::vector<float> data = {1, 2, 3, 4};
  const std::vector<float> before = data;
  ReleaseLog log;
  BorrowOptions options;
  options.read_only = true;
  options.release = log.callback();
  TensorBuffer b = TensorBuffer::borrow(data.data(), Shape{4}, DataType::kFloat32,
                                        Device::cpu(), options);
  EXPECT_TRUE(b.is_read_only());
  EXPECT_THROW(b.mutable_host<float>(), InvalidArgumentError);
  EXPECT_THROW(b.overwrite_host<float>(), InvalidArgumentError);
  EXPECT_THROW(b.mutable_host_bytes(), InvalidArgumentError);
  EXPECT_THROW(b.load_array(std::vector<float>{9, 9, 9, 9}), InvalidArgumentError);
  EXPECT_THROW(b.load_array(std::vector<std::int32_t>{9, 9, 9, 9}), InvalidArgumentError);
  const std::vector<std::byte> bytes(16, std::byte{0x7f});
  EXPECT_THROW(b.load_buffer(bytes), InvalidArgumentError);
  TensorBuffer indices = TensorBuffer::create_fixed_size(Shape{1, 1}, DataType::kInt32);
  TensorBuffer updates = TensorBuffer::create_fixed_size(Shape{1}, DataType::kFloat32);
  updates.load_array(std::vector<float>{100});
  EXPECT_THROW(tensor_scatter_nd_update_in_place(b, indices, updates), InvalidArgumentError);
  TensorBuffer mask = TensorBuffer::create_fixed_size(Shape{4}, DataType::kBool);
  mask.load_array(std::vector<std::int32_t>{1, 1, 1, 1});
  EXPECT_THROW(boolean_mask_update_in_place(b, mask, updates), InvalidArgumentError);
  EXPECT_EQ(std::memcmp(data.data(), before.data(), 16), 0);
  EXPECT_EQ(b.host<float>(), data.data());
  // Reads are free.
  EXPECT_EQ(tensor_scatter_nd_update(b, indices, updates).get_float_array(),
            (std::vector<float>{100, 2, 3, 4}));
  EXPECT_EQ(log.calls(), 0);
  b = TensorBuffer::create_dynamic(DataType::kFloat32);
  EXPECT_EQ(log.calls(), 1);
}

TEST(Borrow, ConstOverloadIsAlwaysReadOnly) {
  const std::int32_t data[2] = {1, 2};
  const TensorBuffer b = TensorBuffer::borrow(static_cast<const void*>(data), Shape{2},
                                              DataType::kInt32, Device::cpu());
  EXPECT_TRUE(b.is_read_only());
}

TEST(Borrow, ReleaseRunsExactlyOnceWithNoStreamAfterHostOnlyUse) {
  std::vector<float> data(4);
  ReleaseLog log;
  {
    BorrowOptions options;
    options.release = log.callback();
    TensorBuffer a = TensorBuffer::borrow(data.data(), Shape{4}, DataType::kFloat32,
                                          Device::cpu(), options);
    TensorBuffer b = std::move(a);  // the moved-from buffer never releases
    b.mutable_host<float>()[0] = 1;
    EXPECT_EQ(log.calls(), 0);
  }
  EXPECT_EQ(log.calls(), 1);
  EXPECT_EQ(log.last_stream(), nullptr);
}

TEST(Borrow, ReleaseIsNeverCalledWhenBorrowThrows) {
  alignas(8) unsigned char raw[16] = {};
  ReleaseLog log;
  BorrowOptions options;
  options.release = log.callback();
  EXPECT_THROW(TensorBuffer::borrow(raw + 1, Shape{2}, DataType::kFloat32, Device::cpu(), options),
               InvalidArgumentError);  // misaligned
  EXPECT_THROW(TensorBuffer::borrow(static_cast<void*>(nullptr), Shape{2}, DataType::kFloat32,
                                    Device::cpu(), options),
               InvalidArgumentError);  // null data
  EXPECT_THROW(TensorBuffer::borrow(raw, Shape{std::int64_t{1} << 62}, DataType::kFloat64,
                                    Device::cpu(), options),
               InvalidArgumentError);  // byte count overflows
  if (!cuda_available()) {
    EXPECT_THROW(TensorBuffer::borrow(raw, Shape{2}, DataType::kFloat32, Device::cuda(), options),
                 UnavailableError);
    BorrowOptions with_stream = options;
    with_stream.ready_stream = Stream{raw};
    EXPECT_THROW(TensorBuffer::borrow(raw, Shape{2}, DataType::kFloat32, Device::cpu(),
                                      with_stream),
                 UnavailableError);
  }
  EXPECT_EQ(log.calls(), 0);
}

TEST(Borrow, ZeroSizeTakesNullData) {
  TensorBuffer b = TensorBuffer::borrow(static_cast<void*>(nullptr), Shape{0, 3},
                                        DataType::kInt64, Device::cpu());
  EXPECT_EQ(b.flat_size(), 0);
  EXPECT_TRUE(b.get_int_array().empty());
  EXPECT_EQ(b.bytes_on(Device::cpu()), 0u);
}

TEST(Borrow, LoadsOfTheSameSizeWriteIntoTheMemoryAndOthersThrow) {
  std::vector<std::int16_t> data(3, 0);
  TensorBuffer b = TensorBuffer::borrow(data.data(), Shape{3}, DataType::kInt16, Device::cpu());
  b.load_array(std::vector<float>{1.5f, -70000.0f, 70000.0f});
  EXPECT_EQ(data, (std::vector<std::int16_t>{1, -32768, 32767}));
  const std::int16_t raw[3] = {7, 8, 9};
  b.load_buffer(std::as_bytes(std::span(raw)));
  EXPECT_EQ(data, (std::vector<std::int16_t>{7, 8, 9}));
  EXPECT_EQ(b.host<std::int16_t>(), data.data());  // copied in, not referenced
  EXPECT_THROW(b.load_array(std::vector<float>{1, 2}, Shape{2}), InvalidArgumentError);
  EXPECT_EQ(data, (std::vector<std::int16_t>{7, 8, 9}));
}

TEST(Borrow, CloneIsAnOwnedCopy) {
  std::vector<float> data = {1, 2};
  TensorBuffer b = TensorBuffer::borrow(data.data(), Shape{2}, DataType::kFloat32, Device::cpu());
  TensorBuffer c = b.clone();
  EXPECT_FALSE(c.is_borrowed());
  c.mutable_host<float>()[0] = 5;
  EXPECT_EQ(data[0], 1.0f);
}

TEST(Borrow, HostHomeCannotBeEvicted) {
  std::vector<float> data = {1, 2};
  TensorBuffer b = TensorBuffer::borrow(data.data(), Shape{2}, DataType::kFloat32, Device::cpu());
  EXPECT_THROW(b.evict(Device::cpu()), InvalidArgumentError);
  b.evict(Device::cuda());  // no device copy: nothing to do
  EXPECT_EQ(b.host<float>(), data.data());
}

TEST(Borrow, StringTensorFromBorrowedArrowBuffers) {
  // An Arrow large_string array's two buffers, owned by the caller.
  std::vector<std::int64_t> offsets = {0, 5, 5, 11};
  std::string chars = "helloworld!";
  ReleaseLog log;
  BorrowOptions options;
  options.read_only = true;
  options.release = log.callback();
  StringTensor strings = StringTensor::from_buffers(
      TensorBuffer::borrow(offsets.data(), Shape{4}, DataType::kInt64, Device::cpu(), options),
      TensorBuffer::borrow(chars.data(), Shape{11}, DataType::kUInt8, Device::cpu(), options),
      Shape{3});
  EXPECT_EQ(strings.offsets().host<std::int64_t>(), offsets.data());
  EXPECT_EQ(strings.to_strings(), (std::vector<std::string>{"hello", "", "world!"}));
  TensorBuffer pos = TensorBuffer::create_fixed_size(Shape{}, DataType::kInt32);
  pos.load_array(std::vector<std::int32_t>{0});
  TensorBuffer len = TensorBuffer::create_fixed_size(Shape{}, DataType::kInt32);
  len.load_array(std::vector<std::int32_t>{3});
  EXPECT_EQ(substr(strings, pos, len).to_strings(),
            (std::vector<std::string>{"hel", "", "wor"}));
  // Bad offsets: the error names them; the buffers are released, nothing leaks.
  offsets[2] = 12;
  EXPECT_THROW(StringTensor::from_buffers(
                   TensorBuffer::borrow(offsets.data(), Shape{4}, DataType::kInt64,
                                        Device::cpu(), options),
                   TensorBuffer::borrow(chars.data(), Shape{11}, DataType::kUInt8,
                                        Device::cpu(), options),
                   Shape{3}),
               InvalidArgumentError);
  EXPECT_EQ(log.calls(), 2);
}

TEST(Borrow, LoadBufferIsCopyOnWriteUntilItsFirstWrite) {
  const std::vector<float> bytes = {1, 2, 3, 4};
  TensorBuffer loaded = TensorBuffer::create_fixed_size(Shape{4}, DataType::kFloat32);
  EXPECT_FALSE(loaded.is_copy_on_write());
  loaded.load_buffer(std::as_bytes(std::span<const float>(bytes)));
  EXPECT_TRUE(loaded.is_copy_on_write());
  EXPECT_EQ(loaded.host<float>(), bytes.data());
  loaded.mutable_host<float>()[0] = 9;  // the first write copies
  EXPECT_FALSE(loaded.is_copy_on_write());
  EXPECT_EQ(bytes[0], 1.0f);
  std::vector<float> data = {1, 2};
  EXPECT_FALSE(TensorBuffer::borrow(data.data(), Shape{2}, DataType::kFloat32, Device::cpu())
                   .is_copy_on_write());  // a borrow is written in place
}

}  // namespace
}  // namespace tensorbuf
