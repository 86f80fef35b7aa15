// <tensorbuf/runtime.hpp>: what `tensorbuf info` prints, and synchronize().
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

TEST(RuntimeTest, CpuThreadCountFollowsTheEnvironment) {
  const char* env = std::getenv("TENSORBUF_NUM_THREADS");
  if (env != nullptr && std::atoi(env) >= 1) {
    EXPECT_EQ(cpu_thread_count(), std::atoi(env));
  } else {
    EXPECT_GE(cpu_thread_count(), 1);
  }
}

TEST(RuntimeTest, TheSubstrPathNeedsWhatTheMaskPathNeeds) {
  const CpuCodePaths paths = cpu_code_paths();
  if (paths.substr_avx512) {
    EXPECT_TRUE(paths.mask_update_avx512);
  }
}

TEST(RuntimeTest, ScatterAndMaskUpdateTakeAvx512OnTheSameCpus) {
  const CpuCodePaths paths = cpu_code_paths();
  EXPECT_EQ(paths.scatter_avx512, paths.mask_update_avx512);
}

TEST(RuntimeTest, SynchronizeOnTheCpuReturnsAtOnce) {
  EXPECT_NO_THROW(synchronize(Device::cpu()));
  EXPECT_NO_THROW(synchronize(Device::cpu(), Stream{}));
}

TEST(RuntimeTest, SynchronizeOnAnUnusableCudaDeviceRaisesUnavailable) {
  try {
    synchronize(Device::cuda(cuda_device_count()));  // one past the last device
    ADD_FAILURE() << "no error";
  } catch (const UnavailableError& e) {
    const std::string what = e.what();
    if (cuda_available()) {
      EXPECT_NE(what.find("no CUDA device"), std::string::npos) << what;
    } else {
      EXPECT_NE(what.find(cuda_availability_reason()), std::string::npos) << what;
    }
  }
}

TEST(RuntimeTest, SynchronizeCUDAWaitsForAnOpOnTheLibraryStream) {
  if (!cuda_available()) GTEST_SKIP() << "CUDA unavailable: " << cuda_availability_reason();
  TensorBuffer tensor = TensorBuffer::create_fixed_size(Shape{4}, DataType::kFloat32);
  tensor.load_array(std::vector<float>{1, 2, 3, 4});
  TensorBuffer indices = TensorBuffer::create_fixed_size(Shape{1, 1}, DataType::kInt32);
  indices.load_array(std::vector<std::int32_t>{2});
  TensorBuffer updates = TensorBuffer::create_fixed_size(Shape{1}, DataType::kFloat32);
  updates.load_array(std::vector<float>{5});
  tensor.sync_to(Device::cuda(0));
  tensor_scatter_nd_add_in_place(tensor, indices, updates,
                                 ScatterOptions{.device = Device::cuda(0)});
  reset_stats();
  synchronize(Device::cuda(0));
  EXPECT_EQ(stats().host_waits, 1);
  EXPECT_EQ(tensor.get_float_array(), (std::vector<float>{1, 2, 8, 4}));
}

}  // namespace
}  // namespace tensorbuf
