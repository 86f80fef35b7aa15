// <tensorbuf/dlpack.hpp> without the system <dlpack/dlpack.h> (CMake compiles this file with
// TENSORBUF_DLPACK_NO_SYSTEM_HEADER): its own declarations, written from the DLPack
// specification, must be layout-compatible with the library (built with the system header
// where it is installed), so a capsule passes between the two.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "tensorbuf/dlpack.hpp"
#include "tensorbuf/tensorbuf.hpp"

#ifndef TENSORBUF_DLPACK_NO_SYSTEM_HEADER
#error "this test checks tensorbuf's own DLPack declarations"
#endif

static_assert(sizeof(DLTensor) == 48 && offsetof(DLTensor, byte_offset) == 40);
static_assert(sizeof(DLManagedTensor) == 64 && offsetof(DLManagedTensor, deleter) == 56);
static_assert(sizeof(DLManagedTensorVersioned) == 80 &&
              offsetof(DLManagedTensorVersioned, dl_tensor) == 32);
static_assert(kDLBool == 6 && kDLBfloat == 4 && kDLCUDA == 2);

namespace tensorbuf {
namespace {

TEST(DLPackOwnHeader, CapsulesCrossTheLibraryBoundaryBothWays) {
  TensorBuffer b = TensorBuffer::create_fixed_size(Shape{2, 2}, DataType::kBool);
  b.load_array(std::vector<std::int32_t>{1, 0, 0, 1});
  DLManagedTensorVersioned* t = to_dlpack_versioned(b);
  EXPECT_EQ(t->dl_tensor.dtype.code, kDLBool);
  EXPECT_EQ(t->dl_tensor.shape[1], 2);
  EXPECT_EQ(t->dl_tensor.strides[0], 2);
  TensorBuffer back = from_dlpack(t);  // consumes the capsule
  EXPECT_EQ(back.data_type(), DataType::kBool);
  EXPECT_EQ(back.get_int_array(), (std::vector<std::int32_t>{1, 0, 0, 1}));
  EXPECT_EQ(back.host_bytes(), b.host_bytes());
}

}  // namespace
}  // namespace tensorbuf
