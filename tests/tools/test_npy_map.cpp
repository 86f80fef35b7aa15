// map_npy_tensor (docs/npy.md, docs/interop.md): a .npy file's data borrowed through a shared
// mapping: no copy, read-only unless writable, in-place ops write the file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tensorbuf/dlpack.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

namespace fs = std::filesystem;

class NpyMap : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tensorbuf_test_npy_map_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string write(const std::string& name, std::vector<float> values, Shape shape,
                    const NpyWriteOptions& options = {}) {
    TensorBuffer b = TensorBuffer::create_fixed_size(shape, DataType::kFloat32);
    b.load_array(values);
    const std::string p = (dir_ / name).string();
    save_npy(p, b, options);
    return p;
  }
  fs::path dir_;
};

TEST_F(NpyMap, ReadOnlyMappingReadsTheFileWithoutACopy) {
  const std::string p = write("a.npy", {1, 2, 3, 4, 5, 6}, Shape{2, 3});
  reset_stats();
  TensorBuffer b = map_npy_tensor(p);
  EXPECT_EQ(stats().host_allocations + stats().pinned_host_allocations, 0);
  EXPECT_TRUE(b.is_borrowed());
  EXPECT_TRUE(b.is_read_only());
  EXPECT_EQ(b.shape(), (Shape{2, 3}));
  EXPECT_EQ(b.get_float_array(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_THROW(b.mutable_host<float>(), InvalidArgumentError);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.host_bytes()) % 64, 0u);  // NumPy's padding
}

TEST_F(NpyMap, WritableMappingIsUpdatedInPlace) {
  const std::string p = write("a.npy", {1, 1, 1}, Shape{3});
  {
    TensorBuffer b = map_npy_tensor(p, NpyMapOptions{.writable = true});
    TensorBuffer indices = TensorBuffer::create_fixed_size(Shape{1, 1}, DataType::kInt32);
    indices.load_array(std::vector<std::int32_t>{1});
    TensorBuffer updates = TensorBuffer::create_fixed_size(Shape{1}, DataType::kFloat32);
    updates.load_array(std::vector<float>{41});
    tensor_scatter_nd_add_in_place(b, indices, updates);
  }
  EXPECT_EQ(load_npy_tensor(p).get_float_array(), (std::vector<float>{1, 42, 1}));
}

TEST_F(NpyMap, TheMappingOutlivesTheBufferThroughAnExport) {
  const std::string p = write("a.npy", {7, 8}, Shape{2});
  DLManagedTensorVersioned* capsule = nullptr;
  {
    TensorBuffer b = map_npy_tensor(p);
    capsule = to_dlpack_versioned(b);
  }
  EXPECT_EQ(capsule->flags, DLPACK_FLAG_BITMASK_READ_ONLY);
  EXPECT_EQ(static_cast<const float*>(capsule->dl_tensor.data)[1], 8.0f);
  capsule->deleter(capsule);
}

TEST_F(NpyMap, FilesThatNeedAConversionOrAreBrokenAreRefused) {
  NpyWriteOptions big_endian;
  big_endian.big_endian = true;
  EXPECT_THROW(map_npy_tensor(write("big.npy", {1}, Shape{1}, big_endian)), InvalidArgumentError);
  save_npy(dir_ / "s.npy", StringTensor::from_strings({"ab"}, Shape{1}));
  EXPECT_THROW(map_npy_tensor(dir_ / "s.npy"), InvalidArgumentError);
  EXPECT_THROW(map_npy_tensor(dir_ / "missing.npy"), InvalidArgumentError);
  std::ofstream(dir_ / "empty.npy").close();
  EXPECT_THROW(map_npy_tensor(dir_ / "empty.npy"), InvalidArgumentError);
  const std::string p = write("t.npy", {1, 2, 3, 4}, Shape{4});
  fs::resize_file(p, fs::file_size(p) - 1);  // truncated data
  EXPECT_THROW(map_npy_tensor(p), InvalidArgumentError);
}

TEST_F(NpyMap, ZeroSizeArray) {
  const std::string p = write("z.npy", {}, Shape{0, 5});
  TensorBuffer b = map_npy_tensor(p);
  EXPECT_EQ(b.shape(), (Shape{0, 5}));
  EXPECT_TRUE(b.get_float_array().empty());
}

}  // namespace
}  // namespace tensorbuf
