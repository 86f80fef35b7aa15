// Under ThreadSanitizer (the tsan preset): a DLPack deleter and a borrowed buffer's release run
// on other threads while the buffer is in use (docs/interop.md: "release may be called on any
// thread").
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "support/interop_helpers.hpp"
#include "tensorbuf/dlpack.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

TEST(InteropConcurrency, DeletersRunOnAnotherThreadWhileTheBufferIsUsed) {
  TensorBuffer b = TensorBuffer::create_fixed_size(Shape{256}, DataType::kFloat32);
  std::vector<DLManagedTensorVersioned*> capsules;
  for (int i = 0; i < 64; ++i) capsules.push_back(to_dlpack_versioned(b));
  std::thread deleter([&] {
    for (DLManagedTensorVersioned* t : capsules) t->deleter(t);
  });
  TensorBuffer indices = TensorBuffer::create_fixed_size(Shape{1, 1}, DataType::kInt32);
  TensorBuffer updates = TensorBuffer::create_fixed_size(Shape{1}, DataType::kFloat32);
  updates.load_array(std::vector<float>{1});
  for (int i = 0; i < 64; ++i) {
    tensor_scatter_nd_add_in_place(b, indices, updates);
    EXPECT_EQ(b.get_float_value(0), static_cast<float>(i + 1));
  }
  deleter.join();
  b.load_array(std::vector<float>(256, 2.0f));
  EXPECT_EQ(b.get_float_value(255), 2.0f);
}

TEST(InteropConcurrency, ReleaseRunsOnTheThreadDroppingTheLastReference) {
  std::vector<float> data(64, 1.0f);
  testing::ReleaseLog log;
  BorrowOptions options;
  options.release = log.callback();
  TensorBuffer b = TensorBuffer::borrow(data.data(), Shape{64}, DataType::kFloat32,
                                        Device::cpu(), options);
  DLManagedTensor* capsule = to_dlpack(b);
  std::thread last([capsule] { capsule->deleter(capsule); });
  b = TensorBuffer::create_dynamic(DataType::kFloat32);
  last.join();
  EXPECT_EQ(log.calls(), 1);
}

}  // namespace
}  // namespace tensorbuf
