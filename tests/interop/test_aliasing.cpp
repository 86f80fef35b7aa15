// The aliasing rule of in-place ops (docs/interop.md, "Aliasing"): an input that shares memory
// with the tensor being written -- the tensor itself, a second borrow of the same array, an
// overlapping part of it, an export borrowed back -- is read in full before any write, as NumPy
// reads `t[idx] += t[::-1]`. Memory is compared, not objects or storages.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/in_place.hpp"
#include "tensorbuf/c_api.h"
#include "tensorbuf/dlpack.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

template <class T>
TensorBuffer borrow(std::vector<T>& data, std::size_t offset, const Shape& shape, DataType type) {
  return TensorBuffer::borrow(data.data() + offset, shape, type, Device::cpu());
}

TensorBuffer owned_indices(const std::vector<std::int32_t>& values) {
  TensorBuffer indices = TensorBuffer::create_fixed_size(
      Shape{static_cast<std::int64_t>(values.size()), 1}, DataType::kInt32);
  indices.load_array(values);
  return indices;
}

// Two borrows of one int32 array as tensor and indices: rows must use the indices as they were
// before the call. Reading them while writing would make row 1's index 5 (out of range).
TEST(Aliasing, TwoBorrowsOfOneArrayAsTensorAndIndices) {
  std::vector<std::int32_t> data = {1, 2, 3, 0};
  TensorBuffer tensor = borrow(data, 0, Shape{4}, DataType::kInt32);
  const TensorBuffer indices = borrow(data, 0, Shape{4, 1}, DataType::kInt32);
  TensorBuffer updates = TensorBuffer::create_fixed_size(Shape{4}, DataType::kInt32);
  updates.load_array(std::vector<std::int32_t>{5, 6, 7, 8});
  tensor_scatter_nd_update_in_place(tensor, indices, updates);
  EXPECT_EQ(data, (std::vector<std::int32_t>{8, 5, 6, 7}));
}

// Updates overlapping the written tensor at another offset (a NumPy view of the same array).
TEST(Aliasing, UpdatesOverlappingTheTensorAreReadBeforeAnyWrite) {
  std::vector<float> data = {1, 2, 3, 4, 5, 6, 7, 8};
  TensorBuffer tensor = borrow(data, 0, Shape{8}, DataType::kFloat32);
  const TensorBuffer updates = borrow(data, 4, Shape{4}, DataType::kFloat32);  // data[4:8]
  tensor_scatter_nd_add_in_place(tensor, owned_indices({7, 6, 5, 4}), updates);
  EXPECT_EQ(data, (std::vector<float>{1, 2, 3, 4, 13, 13, 13, 13}));
}

TEST(Aliasing, MaskUpdateWithUpdatesOverlappingTheTensor) {
  std::vector<float> data = {1, 2, 3, 4};
  TensorBuffer tensor = borrow(data, 0, Shape{4}, DataType::kFloat32);
  const TensorBuffer updates = borrow(data, 0, Shape{3}, DataType::kFloat32);  // data[0:3]
  TensorBuffer mask = TensorBuffer::create_fixed_size(Shape{4}, DataType::kBool);
  mask.load_array(std::vector<std::int32_t>{0, 1, 1, 1});
  boolean_mask_update_in_place(tensor, mask, updates);
  EXPECT_EQ(data, (std::vector<float>{1, 1, 2, 3}));
}

TEST(Aliasing, MaskUpdateWithASecondBorrowAsMask) {
  std::vector<std::uint8_t> data = {1, 1, 0, 1};
  TensorBuffer tensor = borrow(data, 1, Shape{3}, DataType::kUInt8);     // data[1:4]
  const TensorBuffer mask = borrow(data, 0, Shape{3}, DataType::kBool);  // data[0:3]
  TensorBuffer updates = TensorBuffer::create_fixed_size(Shape{2}, DataType::kUInt8);
  updates.load_array(std::vector<std::int32_t>{0, 6});
  // The mask as it was, [T, T, F], selects tensor positions 0 and 1 (data[1] and data[2]).
  boolean_mask_update_in_place(tensor, mask, updates);
  EXPECT_EQ(data, (std::vector<std::uint8_t>{1, 0, 6, 1}));
}

// An export of an owned buffer, imported back: the import's home is the exporter's memory.
TEST(Aliasing, AnExportImportedBackAliasesItsExporter) {
  TensorBuffer tensor = TensorBuffer::create_fixed_size(Shape{4}, DataType::kFloat32);
  tensor.load_array(std::vector<float>{1, 2, 3, 4});
  const TensorBuffer updates = from_dlpack(to_dlpack_versioned(tensor));
  tensor_scatter_nd_add_in_place(tensor, owned_indices({3, 2, 1, 0}), updates);
  EXPECT_EQ(tensor.get_float_array(), (std::vector<float>{5, 5, 5, 5}));
}

// Aliased or not, an error leaves the tensor as it was (the out-of-place result is dropped).
TEST(Aliasing, AnErrorLeavesAliasedMemoryUnchanged) {
  std::vector<std::int32_t> data = {1, 2, 9, 0};
  TensorBuffer tensor = borrow(data, 0, Shape{4}, DataType::kInt32);
  const TensorBuffer indices = borrow(data, 0, Shape{4, 1}, DataType::kInt32);
  TensorBuffer updates = TensorBuffer::create_fixed_size(Shape{4}, DataType::kInt32);
  updates.load_array(std::vector<std::int32_t>{5, 6, 7, 8});
  EXPECT_THROW(tensor_scatter_nd_add_in_place(tensor, indices, updates), InvalidArgumentError);
  EXPECT_EQ(data, (std::vector<std::int32_t>{1, 2, 9, 0}));
}

TEST(Aliasing, TwoBorrowsOfOneArrayThroughTheCApi) {
  std::vector<std::int32_t> data = {1, 2, 3, 0};
  const std::int64_t tensor_shape[] = {4};
  const std::int64_t indices_shape[] = {4, 1};
  const std::int32_t update_values[] = {5, 6, 7, 8};
  const tb_device cpu = {0, 0};
  tb_buffer* tensor = nullptr;
  tb_buffer* indices = nullptr;
  tb_buffer* updates = nullptr;
  ASSERT_EQ(tb_buffer_borrow(data.data(), TB_INT32, 1, tensor_shape, cpu, 0, nullptr, &tensor),
            TB_OK);
  ASSERT_EQ(tb_buffer_borrow(data.data(), TB_INT32, 2, indices_shape, cpu, 1, nullptr, &indices),
            TB_OK);
  ASSERT_EQ(tb_buffer_create(TB_INT32, 1, tensor_shape, &updates), TB_OK);
  ASSERT_EQ(tb_buffer_copy_from_host(updates, update_values, sizeof update_values), TB_OK);
  EXPECT_EQ(tb_tensor_scatter_nd_update_in_place(tensor, indices, updates, TB_OOB_DEFAULT, nullptr),
            TB_OK);
  EXPECT_EQ(data, (std::vector<std::int32_t>{8, 5, 6, 7}));
  tb_buffer_destroy(updates);
  tb_buffer_destroy(indices);
  tb_buffer_destroy(tensor);
}

// The rule compares bytes: adjacent or separate memory is not aliased (no extra copy then).
TEST(Aliasing, SharesMemoryComparesByteRanges) {
  std::vector<float> data(8, 1.0f);
  const TensorBuffer low = borrow(data, 0, Shape{4}, DataType::kFloat32);
  const TensorBuffer high = borrow(data, 4, Shape{4}, DataType::kFloat32);
  const TensorBuffer middle = borrow(data, 3, Shape{2}, DataType::kFloat32);
  const TensorBuffer empty = borrow(data, 2, Shape{0}, DataType::kFloat32);
  TensorBuffer owned = TensorBuffer::create_fixed_size(Shape{4}, DataType::kFloat32);
  TensorBuffer other = TensorBuffer::create_fixed_size(Shape{4}, DataType::kFloat32);
  EXPECT_TRUE(core::shares_memory(low, low));
  EXPECT_FALSE(core::shares_memory(low, high));
  EXPECT_FALSE(core::shares_memory(high, low));
  EXPECT_TRUE(core::shares_memory(low, middle));
  EXPECT_TRUE(core::shares_memory(middle, high));
  EXPECT_FALSE(core::shares_memory(low, empty));
  EXPECT_FALSE(core::shares_memory(owned, other));
  EXPECT_FALSE(core::shares_memory(owned, low));
}

TEST(Aliasing, AdjacentBorrowsRunInPlaceWithoutACopy) {
  std::vector<float> data = {1, 2, 3, 4, 10, 20, 30, 40};
  TensorBuffer tensor = borrow(data, 0, Shape{4}, DataType::kFloat32);
  const TensorBuffer updates = borrow(data, 4, Shape{4}, DataType::kFloat32);
  const TensorBuffer indices = owned_indices({0, 1, 2, 3});
  reset_stats();
  tensor_scatter_nd_add_in_place(tensor, indices, updates);
  EXPECT_EQ(stats().host_allocations + stats().pinned_host_allocations, 0);
  EXPECT_EQ(data, (std::vector<float>{11, 22, 33, 44, 10, 20, 30, 40}));
}

}  // namespace
}  // namespace tensorbuf
