// A DLPack import whose allocations fail one at a time (the global operator new of this
// executable throws std::bad_alloc on the n-th allocation once armed): whatever allocation
// fails, the capsule's deleter runs exactly once (I2: "the deleter is called exactly once, also
// on error"). An executable of its own, since it replaces operator new.
#include <gtest/gtest.h>

#include <cstdlib>
#include <new>
#include <vector>

#include "interop/dlpack_capsules.hpp"
#include "tensorbuf/dlpack.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace {
long allocations_until_failure = -1;  // -1: never fail
}

void* operator new(std::size_t size) {
  if (allocations_until_failure == 0) {
    allocations_until_failure = -1;
    throw std::bad_alloc();
  }
  if (allocations_until_failure > 0) --allocations_until_failure;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace tensorbuf {
namespace {

TEST(ImportAllocFailure, EveryFailingAllocationCallsTheDeleterOnce) {
  std::vector<float> data = {1, 2, 3, 4, 5, 6};
  bool imported = false;
  for (long n = 0; n < 64 && !imported; ++n) {
    testing::VersionedCapsule capsule(data.data(), {2, 3}, testing::kF32);
    allocations_until_failure = n;
    try {
      TensorBuffer buffer = from_dlpack(capsule.get());
      allocations_until_failure = -1;
      imported = true;
      EXPECT_EQ(capsule.deleter_calls, 0) << "allocation " << n;
    } catch (const std::bad_alloc&) {
    }
    allocations_until_failure = -1;
    EXPECT_EQ(capsule.deleter_calls, 1) << "allocation " << n << " failed";
  }
  EXPECT_TRUE(imported) << "the import makes more than 64 allocations";
}

}  // namespace
}  // namespace tensorbuf
