// Fault injection: fail the N-th allocation or copy of each op's workload, for every N
// until the workload succeeds. Each failure must surface as a typed error, leave the inputs (and
// an in-place op's tensor) exactly as they were, and leak nothing.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <initializer_list>
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

// Reads the side that is valid (never syncs: that would change the state it records).
BufferState state_of(const TensorBuffer& b) {
  BufferState s{{}, b.shape(), b.is_valid_on(Device::cpu()), b.is_valid_on(Device::cuda())};
  const void* raw = s.host_valid || !s.device_valid ? b.host_bytes() : b.device_bytes();
  const auto* p = static_cast<const std::uint8_t*>(raw);
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

enum class Fault { kAllocation, kCopy };

// kExact: shape, bytes and validity as they were. kNoCopyLost: shape and bytes, and every
// valid copy still valid; a const input may gain a host copy, which changes no value.
enum class Same { kExact, kNoCopyLost };

bool same(Same how, const BufferState& before, const BufferState& after) {
  if (how == Same::kExact) return before == after;
  return before.bytes == after.bytes && before.shape == after.shape &&
         (!before.host_valid || after.host_valid) && (!before.device_valid || after.device_valid);
}

// Runs `op` with the n-th allocation (or copy) failing, n = 1, 2, ... until it succeeds; after
// each failure, which must be ResourceExhaustedError (InternalError for a copy), checks that
// every buffer in `watched` is unchanged. Returns the number of injected failures.
int inject_failures(ScopedTestDeviceMemory& memory, Fault fault,
                    const std::vector<const TensorBuffer*>& watched,
                    const std::function<void()>& op, Same how = Same::kExact) {
  for (int n = 1; n < 100; ++n) {
    std::vector<BufferState> before;
    for (const TensorBuffer* b : watched) before.push_back(state_of(*b));
    fault == Fault::kAllocation ? memory->fail_allocation(n) : memory->fail_copy(n);
    bool failed = false;
    try {
      op();
    } catch (const ResourceExhaustedError&) {
      failed = fault == Fault::kAllocation;
    } catch (const InternalError&) {
      failed = fault == Fault::kCopy;
    }
    memory->fail_nothing();
    if (!failed) return n - 1;
    for (std::size_t i = 0; i < watched.size(); ++i) {
      EXPECT_TRUE(same(how, before[i], state_of(*watched[i])))
          << "buffer " << i << " changed at n=" << n;
    }
  }
  ADD_FAILURE() << "workload never succeeded";
  return 0;
}

int inject_allocation_failures(ScopedTestDeviceMemory& memory,
                               const std::vector<const TensorBuffer*>& watched,
                               const std::function<void()>& op) {
  return inject_failures(memory, Fault::kAllocation, watched, op);
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

// Only the device copy is valid (written there, as by CUDA work): a CPU op downloads it.
TensorBuffer device_resident(const TensorBuffer& values) {
  TensorBuffer b = TensorBuffer::create_uninitialized(values.shape(), values.data_type());
  std::memcpy(b.overwrite_device_bytes(), values.host_bytes(), values.size_bytes());
  return b;
}

// Drops the host copies an earlier attempt's downloads left, so that every attempt downloads
// every input again (a device write of the same bytes: no copy).
void stale_on_host(std::initializer_list<TensorBuffer*> buffers) {
  for (TensorBuffer* b : buffers) b->mutable_device_bytes();
}

// CPU ops on device-resident inputs: their downloads are the op's copies through the device
// memory (the CUDA executor's own copies need a GPU; see docs/reliability.md). Each copy fails
// once: the in-place tensor stays exactly as it was, inputs keep their values and valid copies
// (a const input may keep the host copy it gained). Allocations on this path come from the
// caching host allocator, whose failures the tests above inject.
TEST(FaultInjectionTest, CopiesInsideOpsOnDeviceResidentInputs) {
  ScopedTestDeviceMemory memory;
  {
    TensorBuffer tensor = device_resident(ints({1, 1, 1, 1, 1, 1, 1, 1}, {8}));
    TensorBuffer indices = device_resident(ints({4, 3, 1, 7}, {4, 1}));
    TensorBuffer updates = device_resident(ints({9, 10, 11, 12}, {4}));
    const int scatter_points = inject_failures(memory, Fault::kCopy, {&tensor}, [&] {
      stale_on_host({&indices, &updates});
      tensor_scatter_nd_add_in_place(tensor, indices, updates, {.device = Device::cpu()});
    });
    EXPECT_EQ(tensor.get_int_array(), (std::vector<std::int32_t>{1, 12, 1, 11, 10, 1, 1, 13}));
    EXPECT_EQ(indices.get_int_array(), (std::vector<std::int32_t>{4, 3, 1, 7}));
    EXPECT_EQ(updates.get_int_array(), (std::vector<std::int32_t>{9, 10, 11, 12}));
    EXPECT_EQ(scatter_points, 3);  // indices, updates, then the tensor

    TensorBuffer values = device_resident(floats({1, 2, 3, 4, 5, 6}, {2, 3}));
    TensorBuffer mask = device_resident(bools({1, 0, 1}, {3}));
    TensorBuffer zero = device_resident(floats({0}, {}));
    const int mask_points = inject_failures(memory, Fault::kCopy, {&values}, [&] {
      stale_on_host({&mask, &zero});
      boolean_mask_update_in_place(values, mask, zero, {.device = Device::cpu(), .axis = 1});
    });
    EXPECT_EQ(values.get_float_array(), (std::vector<float>{0, 2, 0, 0, 5, 0}));
    EXPECT_EQ(mask.get_int_array(), (std::vector<std::int32_t>{1, 0, 1}));
    EXPECT_EQ(zero.get_float_array(), (std::vector<float>{0}));
    EXPECT_EQ(mask_points, 3);  // mask, updates, then the tensor

    const StringTensor words = StringTensor::from_strings({"Hello", "World"}, {2});
    TensorBuffer pos = device_resident(ints({1}, {}));
    TensorBuffer len = device_resident(ints({3}, {}));
    const int substr_points = inject_failures(
        memory, Fault::kCopy, {&pos, &len},
        [&] {
          stale_on_host({&pos, &len});
          EXPECT_EQ(substr(words, pos, len, {.device = Device::cpu()}).to_strings(),
                    (std::vector<std::string>{"ell", "orl"}));
        },
        Same::kNoCopyLost);
    EXPECT_EQ(substr_points, 2);  // pos, len
    std::printf(
        "[ fault points ] copies in CPU ops on device-resident inputs: scatter %d, "
        "boolean_mask_update %d, substr %d\n",
        scatter_points, mask_points, substr_points);
  }
  EXPECT_EQ(memory->live_host_blocks(), 0);
  EXPECT_EQ(memory->live_device_blocks(), 0);
}

}  // namespace
}  // namespace tensorbuf
