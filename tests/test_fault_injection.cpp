// Fault injection (issue 7): fail the N-th allocation or copy of each op's workload, for every N
// until the workload succeeds. Each failure must surface as a typed error, leave the inputs (and
// an in-place op's tensor) exactly as they were, and leak nothing.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "support/test_device_memory.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::ScopedTestDeviceMemory;

struct BufferState {
  std::vector<std::uint8_t> bytes;
  Shape shape;
  bool host_valid;
  bool device_valid;
  friend bool operator==(const BufferState&, const BufferState&) = default;
};

BufferState state_of(const TensorBuffer& b) {
  BufferState s{{}, b.shape(), b.is_valid_on(Device::cpu()), b.is_valid_on(Device::cuda())};
  const auto* p = static_cast<const std::uint8_t*>(b.host_bytes());
  s.bytes.assign(p, p + b.size_bytes());
  return s;
}

TensorBuffer ints(std::vector<std::int32_t> v, Shape shape) {
  TensorBuffer b = TensorBuffer::create_fixed_size(shape, DataType::kInt32);
  b.load_array(v);
  return b;
}

TensorBuffer floats(std::vector<float> v, Shape shape) {
  TensorBuffer b = TensorBuffer::create_fixed_size(shape, DataType::kFloat32);
  b.load_array(v);
  return b;
}

TensorBuffer bools(std::vector<std::int32_t> v, Shape shape) {
  TensorBuffer b = TensorBuffer::create_fixed_size(shape, DataType::kBool);
  b.load_array(v);
  return b;
}

// Runs `op` with the n-th allocation failing, n = 1, 2, ... until it succeeds; after each
// failure checks that every buffer in `watched` is unchanged. Returns the number of injected
// failures.
int inject_allocation_failures(ScopedTestDeviceMemory& memory,
                               const std::vector<const TensorBuffer*>& watched,
                               const std::function<void()>& op) {
  for (int n = 1; n < 100; ++n) {
    std::vector<BufferState> before;
    for (const TensorBuffer* b : watched) before.push_back(state_of(*b));
    memory->fail_allocation(n);
    bool failed = false;
    try {
      op();
    } catch (const ResourceExhaustedError&) {
      failed = true;
    }
    memory->fail_nothing();
    if (!failed) return n - 1;
    for (std::size_t i = 0; i < watched.size(); ++i) {
      EXPECT_EQ(state_of(*watched[i]), before[i]) << "buffer " << i << " changed at n=" << n;
    }
  }
  ADD_FAILURE() << "workload never succeeded";
  return 0;
}

TEST(FaultInjectionTest, ScatterOutOfPlaceAndInPlace) {
  ScopedTestDeviceMemory memory;
  {
    TensorBuffer tensor = ints({1, 1, 1, 1, 1, 1, 1, 1}, {8});
    TensorBuffer indices = ints({4, 3, 1, 7}, {4, 1});
    TensorBuffer updates = ints({9, 10, 11, 12}, {4});
    const int out_of_place = inject_allocation_failures(memory, {&tensor, &indices, &updates}, [&] {
      TensorBuffer out = tensor_scatter_nd_sub(tensor, indices, updates);
      EXPECT_EQ(out.get_int_array(), (std::vector<std::int32_t>{1, -10, 1, -9, -8, 1, 1, -11}));
    });
    EXPECT_GE(out_of_place, 1);
    inject_allocation_failures(memory, {&tensor, &indices, &updates},
                               [&] { tensor_scatter_nd_add_in_place(tensor, indices, updates); });
    EXPECT_EQ(tensor.get_int_array(), (std::vector<std::int32_t>{1, 12, 1, 11, 10, 1, 1, 13}));
  }
  EXPECT_EQ(memory->live_host_blocks(), 0);
  EXPECT_EQ(memory->live_device_blocks(), 0);
}

TEST(FaultInjectionTest, BooleanMaskUpdateOutOfPlaceAndInPlace) {
  ScopedTestDeviceMemory memory;
  {
    TensorBuffer tensor = floats({1, 2, 3, 4, 5, 6}, {2, 3});
    TensorBuffer mask = bools({1, 0, 1}, {3});
    TensorBuffer updates = floats({0}, {});
    const BooleanMaskUpdateOptions options{.axis = 1};
    const int out_of_place = inject_allocation_failures(memory, {&tensor, &mask, &updates}, [&] {
      TensorBuffer out = boolean_mask_update(tensor, mask, updates, options);
      EXPECT_EQ(out.get_float_array(), (std::vector<float>{0, 2, 0, 0, 5, 0}));
    });
    EXPECT_GE(out_of_place, 1);
    inject_allocation_failures(memory, {&tensor, &mask, &updates},
                               [&] { boolean_mask_update_in_place(tensor, mask, updates, options); });
    EXPECT_EQ(tensor.get_float_array(), (std::vector<float>{0, 2, 0, 0, 5, 0}));
  }
  EXPECT_EQ(memory->live_host_blocks(), 0);
}

TEST(FaultInjectionTest, Substr) {
  ScopedTestDeviceMemory memory;
  {
    StringTensor input = StringTensor::from_strings({"Hello", "World"}, {2});
    TensorBuffer pos = ints({1}, {});
    TensorBuffer len = ints({3}, {});
    const BufferState offsets = state_of(input.offsets());
    const BufferState chars = state_of(input.chars());
    const int failures = inject_allocation_failures(memory, {&pos, &len}, [&] {
      StringTensor out = substr(input, pos, len);
      EXPECT_EQ(out.to_strings(), (std::vector<std::string>{"ell", "orl"}));
    });
    EXPECT_GE(failures, 1);
    EXPECT_EQ(state_of(input.offsets()), offsets);
    EXPECT_EQ(state_of(input.chars()), chars);
  }
  EXPECT_EQ(memory->live_host_blocks(), 0);
}

TEST(FaultInjectionTest, LoadsAndConversions) {
  ScopedTestDeviceMemory memory;
  {
    TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat16);
    b.load_array(std::vector<float>{1, 2}, {2});
    inject_allocation_failures(memory, {&b}, [&] {
      b.load_array(std::vector<float>{1, 2, 3}, {3});
    });
    EXPECT_EQ(b.get_float_array(), (std::vector<float>{1, 2, 3}));
    inject_allocation_failures(memory, {&b}, [&] {
      TensorBuffer c = TensorBuffer::create_from(b, DataType::kUInt8);
      EXPECT_EQ(c.get_int_array(), (std::vector<std::int32_t>{1, 2, 3}));
    });
  }
  EXPECT_EQ(memory->live_host_blocks(), 0);
}

}  // namespace
}  // namespace tensorbuf
