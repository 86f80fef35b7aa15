// Limits, part 1: element and byte counts that overflow int64, dims near INT64_MAX
// through every op (on the CPU and through the CUDA backend's drivers on the host executor),
// and strings of more than 2^31 bytes in total through the 64-bit offset arithmetic. Nothing
// big is allocated: a buffer that is never written owns no memory, and only byte-unit paths
// that read offsets, never chars, are run on the big strings.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "core/plan_substr.hpp"
#include "core/substr_backends.hpp"
#include "scatter_nd/driver_helpers.hpp"
#include "scatter_nd/helpers.hpp"
#include "substr/helpers.hpp"
#include "support/error_text.hpp"

namespace tensorbuf {
namespace {

namespace sc = testing::scatter;
namespace mu = testing::mask_update;

constexpr std::int64_t kMax = INT64_MAX;
constexpr std::int64_t k2to62 = std::int64_t{1} << 62;

template <class F>
std::string error_text(F&& f) {
  return testing::invalid_argument_text(std::forward<F>(f));
}

TensorBuffer empty(const Shape& shape, DataType type = DataType::kFloat32) {
  return TensorBuffer::create_fixed_size(shape, type);
}

// ---------------------------------------------------------------------------------------------
// Overflowing counts

TEST(Limits, ElementCountOverflowIsInvalidArgument) {
  EXPECT_THROW(Shape({std::int64_t{1} << 32, std::int64_t{1} << 31}), InvalidArgumentError);
  EXPECT_EQ(Shape({std::int64_t{1} << 31, std::int64_t{1} << 31, 1}).num_elements(), k2to62);
  // Rank 8: 256^7 * 128 = 2^63 overflows, 256^7 * 127 fits.
  EXPECT_THROW(Shape({256, 256, 256, 256, 256, 256, 256, 128}), InvalidArgumentError);
  EXPECT_EQ(Shape({256, 256, 256, 256, 256, 256, 256, 127}).num_elements(),
            std::int64_t{127} << 56);
  EXPECT_THROW(Shape(std::vector<std::int64_t>(40, 3)), InvalidArgumentError);  // 3^40 > 2^63
  EXPECT_EQ(Shape(std::vector<std::int64_t>(39, 3)).num_elements(), 4052555153018976267);
  EXPECT_EQ(error_text([] {
              (void)Shape({k2to62, 2});
            }),
            "shape [4611686018427387904,2] has more elements than int64 can count");
  // A zero anywhere makes any other dims fine.
  EXPECT_EQ(Shape({kMax, kMax, 0, kMax}).num_elements(), 0);
}

TEST(Limits, ByteCountOverflowIsInvalidArgumentBeforeAnyAllocation) {
  for (DataType type : {DataType::kBool, DataType::kUInt8, DataType::kInt8, DataType::kInt16,
                        DataType::kInt32, DataType::kInt64, DataType::kFloat16, DataType::kBFloat16,
                        DataType::kFloat32, DataType::kFloat64}) {
    SCOPED_TRACE(std::string(to_string(type)));
    const auto size = static_cast<std::int64_t>(type_size(type));
    // The largest buffer whose byte count fits: legal, and owns no memory until written.
    const TensorBuffer most = TensorBuffer::create_uninitialized(Shape{kMax / size}, type);
    EXPECT_EQ(most.size_bytes(), static_cast<std::size_t>(kMax / size * size));
    if (size == 1) continue;
    EXPECT_THROW(TensorBuffer::create_uninitialized(Shape{kMax / size + 1}, type),
                 InvalidArgumentError);
    EXPECT_THROW(TensorBuffer::create_fixed_size(Shape{2, kMax / size / 2 + 1}, type),
                 InvalidArgumentError);
  }
  EXPECT_EQ(error_text([] { TensorBuffer::create_fixed_size(Shape{k2to62}, DataType::kInt16); }),
            "shape [4611686018427387904] of int16 needs more bytes than int64 can count");
}

// ---------------------------------------------------------------------------------------------
// Dims near INT64_MAX through the ops

const sc::Backend kDrivers[] = {sc::Backend::kDriverForward, sc::Backend::kDriverReverse,
                                sc::Backend::kDriverDeterministic, sc::Backend::kCpuOwners,
                                sc::Backend::kCpuBuckets};

// Runs tensor_scatter_nd_add on the CPU (out of place and in place, both policies) and on each
// driver; expects `error` under kError ("" = none) and an unchanged tensor otherwise (every
// slice addressed is empty).
void expect_scatter_keeps_tensor(const TensorBuffer& tensor, const TensorBuffer& indices,
                                 const TensorBuffer& updates, const std::string& error) {
  for (OutOfBoundsPolicy policy : {OutOfBoundsPolicy::kError, OutOfBoundsPolicy::kDrop}) {
    const std::string expected = policy == OutOfBoundsPolicy::kError ? error : "";
    const ScatterOptions options{.device = Device::cpu(), .out_of_bounds = policy};
    TensorBuffer target = tensor.clone();
    if (expected.empty()) {
      EXPECT_EQ(tensor_scatter_nd_add(tensor, indices, updates, options).shape(), tensor.shape());
      tensor_scatter_nd_add_in_place(target, indices, updates, options);
    } else {
      EXPECT_EQ(error_text([&] { tensor_scatter_nd_add(tensor, indices, updates, options); }),
                expected);
      EXPECT_EQ(
          error_text([&] { tensor_scatter_nd_add_in_place(target, indices, updates, options); }),
          expected);
    }
    EXPECT_EQ(sc::bytes_of(target), sc::bytes_of(tensor));
    for (sc::Backend backend : kDrivers) {
      for (bool in_place : {false, true}) {
        const sc::DirectResult r = sc::run_direct(backend, core::ScatterOp::kAdd, tensor, indices,
                                                  updates, policy, in_place);
        EXPECT_EQ(r.error, expected) << sc::backend_name(backend);
        EXPECT_EQ(r.out.shape(), tensor.shape());
      }
    }
  }
}

TEST(Limits, ScatterDimsNearInt64Max) {
  // INT64_MAX empty slices: INT64_MAX - 1 is a good index, INT64_MAX a bad one.
  const TensorBuffer tensor = empty(Shape{kMax, 0});
  const TensorBuffer one_row = empty(Shape{1, 0});
  expect_scatter_keeps_tensor(tensor, sc::make_indices({kMax - 1}, Shape{1, 1}, DataType::kInt64),
                              one_row, "");
  expect_scatter_keeps_tensor(
      tensor, sc::make_indices({kMax}, Shape{1, 1}, DataType::kInt64), one_row,
      "indices[0] = [9223372036854775807] does not index into shape [9223372036854775807,0]");
  // The slice count 2^62 * 4 overflows (the slice strides are never needed).
  const TensorBuffer wide = empty(Shape{k2to62, 4, 0});
  expect_scatter_keeps_tensor(
      wide, sc::make_indices({k2to62 - 1, 3}, Shape{1, 2}, DataType::kInt64), one_row, "");
  expect_scatter_keeps_tensor(
      wide, sc::make_indices({k2to62 - 1, 4}, Shape{1, 2}, DataType::kInt64), one_row,
      "indices[0] = [4611686018427387903, 4] does not index into shape [4611686018427387904,4,0]");
}

TEST(Limits, ScatterEmptyShapesWhosePartialProductsOverflow) {
  // No rows: indices.shape[:-1] = [2^62, 4, 0], whose first two dims alone overflow.
  const TensorBuffer tensor = sc::make(DataType::kInt32, {1, 2, 3}, Shape{3});
  expect_scatter_keeps_tensor(tensor, empty(Shape{k2to62, 4, 0, 1}, DataType::kInt32),
                              empty(Shape{k2to62, 4, 0}, DataType::kInt32), "");
  // An empty tensor whose slice, tensor.shape[1:] = [2^62, 4], alone overflows.
  expect_scatter_keeps_tensor(empty(Shape{0, k2to62, 4}), empty(Shape{0, 1}, DataType::kInt32),
                              empty(Shape{0, k2to62, 4}), "");
}

TEST(Limits, BooleanMaskUpdateDimsNearInt64Max) {
  const TensorBuffer scalar = mu::make_f32(Shape{}, {1});
  // Lead dims [2^62, 4] and trailing dims [2^62, 4] overflow as products, the tensors are empty.
  const struct {
    Shape tensor;
    int axis;
  } cases[] = {{Shape{k2to62, 4, 0}, 2}, {Shape{0, k2to62, 4}, 0}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.tensor.to_string());
    const TensorBuffer tensor = empty(c.tensor);
    const TensorBuffer mask = empty(Shape{0}, DataType::kBool);
    const BooleanMaskUpdateOptions options{.device = Device::cpu(), .axis = c.axis};
    EXPECT_EQ(boolean_mask_update(tensor, mask, scalar, options).shape(), c.tensor);
    TensorBuffer target = tensor.clone();
    boolean_mask_update_in_place(target, mask, scalar, options);
    EXPECT_EQ(target.shape(), c.tensor);
  }
  // Updates of the exact target shape [0, 2^62, 4] (their strides overflow), broadcast = false.
  const TensorBuffer tensor = empty(Shape{0, k2to62, 4});
  const BooleanMaskUpdateOptions exact{.device = Device::cpu(), .broadcast = false};
  EXPECT_EQ(boolean_mask_update(tensor, empty(Shape{0}, DataType::kBool),
                                empty(Shape{0, k2to62, 4}), exact)
                .shape(),
            tensor.shape());
  // The mask shape check with dims near INT64_MAX (the mask, never read, owns no memory).
  EXPECT_EQ(error_text([&] {
              boolean_mask_update(empty(Shape{kMax - 1, 0}),
                                  TensorBuffer::create_uninitialized(Shape{kMax}, DataType::kBool),
                                  scalar);
            }),
            "Mask shape [9223372036854775807] is not compatible with the required mask shape: "
            "[9223372036854775806].");
}

TensorBuffer int32s(const std::vector<std::int64_t>& v, const Shape& shape) {
  return testing::index_buffer(v, shape, DataType::kInt32);
}

// A StringTensor of empty strings... of shape `shape` with no strings (a zero dim).
StringTensor no_strings(const Shape& shape) {
  return StringTensor::from_buffers(testing::index_buffer({0}, Shape{1}, DataType::kInt64),
                                    empty(Shape{0}, DataType::kUInt8), shape);
}

TEST(Limits, SubstrDimsNearInt64Max) {
  const TensorBuffer one = int32s({1}, Shape{});
  for (const Shape& shape : {Shape{kMax, 0}, Shape{0, k2to62, 4}}) {
    SCOPED_TRACE(shape.to_string());
    const StringTensor out =
        substr(no_strings(shape), one, one, SubstrOptions{.device = Device::cpu()});
    EXPECT_EQ(out.shape(), shape);
    EXPECT_EQ(out.size(), 0);
  }
  // Too many output offsets for int64 bytes: rejected by the plan, before pos is read.
  const TensorBuffer huge_pos =
      TensorBuffer::create_uninitialized(Shape{kMax / 8}, DataType::kInt32);
  const StringTensor word = StringTensor::from_strings({"word"}, Shape{});
  EXPECT_EQ(error_text([&] { substr(word, huge_pos, huge_pos); }),
            "a substr output of shape [1152921504606846975] has more offsets than int64 can count");
}

// ---------------------------------------------------------------------------------------------
// Strings of more than 2^31 bytes

constexpr std::int64_t kFirst = (std::int64_t{1} << 31) + 5;  // bytes of string 0
constexpr std::int64_t kTotal = 3'000'000'000;                // of both strings

// Two strings, 2^31 + 5 and 852,516,347 bytes; the chars are never written, so never allocated.
StringTensor big_strings() {
  return StringTensor::from_buffers(
      testing::index_buffer({0, kFirst, kTotal}, Shape{3}, DataType::kInt64),
      TensorBuffer::create_uninitialized(Shape{kTotal}, DataType::kUInt8), Shape{2});
}

// Rule 2: broadcast operands are never materialised. One 16 MiB string against 65536 positions:
// a materialised input would take 1 TiB; the op takes the one string by a 0 stride, and its
// output is 65536 bytes. (UTF-8 positions stay below 1024: each scans up to its position.)
TEST(Limits, SubstrNeverMaterialisesABroadcastInput) {
  const std::int64_t size = std::int64_t{16} << 20;
  const std::int64_t n = std::int64_t{1} << 16;
  std::string big(static_cast<std::size_t>(size), 'a');
  for (std::int64_t i = 0; i < size; i += 256) big[static_cast<std::size_t>(i)] = 'b';
  const StringTensor in = StringTensor::from_strings({big}, Shape{1});
  big.clear();
  const TensorBuffer len = testing::index_buffer(
      std::vector<std::int64_t>(static_cast<std::size_t>(n), 1), Shape{n}, DataType::kInt64);
  for (SubstrUnit unit : {SubstrUnit::kByte, SubstrUnit::kUtf8Char}) {
    const bool bytes = unit == SubstrUnit::kByte;
    std::vector<std::int64_t> pos(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      pos[static_cast<std::size_t>(i)] = bytes ? i * 256 : i % 1024;
    }
    const StringTensor out =
        substr(in, testing::index_buffer(pos, Shape{n}, DataType::kInt64), len, {.unit = unit});
    ASSERT_EQ(out.shape(), Shape{n});
    ASSERT_EQ(out.num_chars(), n);
    for (std::int64_t i : {std::int64_t{0}, std::int64_t{1}, std::int64_t{256}, n - 1}) {
      EXPECT_EQ(out.at(i), pos[static_cast<std::size_t>(i)] % 256 == 0 ? "b" : "a") << i;
    }
  }
}

TEST(Limits, StringTensorOffsetsPast2To31) {
  const StringTensor big = big_strings();
  EXPECT_EQ(big.num_chars(), kTotal);
  EXPECT_EQ(big.offsets().host<std::int64_t>()[1], kFirst);
  EXPECT_FALSE(big.chars().is_valid_on(Device::cpu()));  // nothing was allocated
  EXPECT_EQ(error_text([] {
              StringTensor::from_buffers(
                  testing::index_buffer({0, kFirst, kTotal}, Shape{3}, DataType::kInt64),
                  TensorBuffer::create_uninitialized(Shape{kTotal - 1}, DataType::kUInt8),
                  Shape{2});
            }),
            "the last StringTensor offset must equal the chars size 2999999999, got 3000000000");
  EXPECT_EQ(error_text([] {
              StringTensor::from_buffers(
                  testing::index_buffer({0, kTotal, kFirst}, Shape{3}, DataType::kInt64),
                  TensorBuffer::create_uninitialized(Shape{kFirst}, DataType::kUInt8), Shape{2});
            }),
            "StringTensor offsets must be non-decreasing, got 3000000000 then 2147483653 at "
            "index 2");
}

// out[i][j] = substr(strings[j], pos[i], len[i]) with pos = {0, 2^31 + 4}, len = {-1, 1}: the
// whole strings, then the last byte of string 0, and an out-of-range pos for string 1 (flat
// index 3). Sizes: kFirst, kTotal - kFirst, 1, 0.
struct BigSubstr {
  StringTensor input = big_strings();
  TensorBuffer pos = testing::index_buffer({0, kFirst - 1}, Shape{2, 1}, DataType::kInt64);
  TensorBuffer len = testing::index_buffer({-1, 1}, Shape{2, 1}, DataType::kInt64);
  core::SubstrPlan plan = core::plan_substr(input, pos, len, SubstrOptions{});
};

// Stops a run at the output allocation, recording the total it asked for.
struct StopAtAllocation {
  std::int64_t total;
};

TEST(Limits, SubstrPlanAndBackendsPast2To31Bytes) {
  BigSubstr s;
  EXPECT_EQ(s.plan.in_chars, kTotal);
  EXPECT_EQ(s.plan.out_size, 4);
  const std::vector<std::int64_t> scanned = {0, kFirst, kTotal, kTotal + 1, kTotal + 1};
  for (bool report : {true, false}) {
    SCOPED_TRACE(report ? "kError" : "kDrop");
    // The CUDA backend's driver (byte unit: reads offsets, pos and len only), then the CPU
    // backend, on the same plan and buffers.
    core::SubstrPlan plan = s.plan;
    plan.policy = report ? OutOfBoundsPolicy::kError : OutOfBoundsPolicy::kDrop;
    core::SubstrBuffers buffers;
    buffers.in_offsets = s.input.offsets().host<std::int64_t>();
    buffers.pos = s.pos.host<std::int64_t>();
    buffers.len = s.len.host<std::int64_t>();
    std::vector<std::int64_t> offsets(5, -7);
    buffers.out_offsets = offsets.data();
    const core::AllocateChars stop_at_allocation = [](std::int64_t total) -> std::uint8_t* {
      throw StopAtAllocation{total};
    };
    kernels::HostExecutor executor;
    try {
      const core::SubstrResult r =
          kernels::run_substr<std::int64_t>(executor, plan, buffers, stop_at_allocation);
      EXPECT_TRUE(report);
      EXPECT_EQ(r.first_bad_index, 3);
      EXPECT_EQ(r.bad_input_index, 1);
      EXPECT_EQ(r.bad_pos, kFirst - 1);
      EXPECT_EQ(r.total_bytes, kTotal + 1);
    } catch (const StopAtAllocation& stop) {
      EXPECT_FALSE(report);
      EXPECT_EQ(stop.total, kTotal + 1);
    }
    EXPECT_EQ(offsets, scanned);

    std::vector<std::int64_t> cpu_offsets(5, -7);
    buffers.out_offsets = cpu_offsets.data();
    try {
      const core::SubstrResult r = cpu::substr(plan, buffers, stop_at_allocation);
      EXPECT_TRUE(report);
      EXPECT_EQ(r.first_bad_index, 3);
      EXPECT_EQ(r.bad_input_index, 1);
      EXPECT_EQ(r.bad_pos, kFirst - 1);
    } catch (const StopAtAllocation& stop) {
      EXPECT_FALSE(report);
      EXPECT_EQ(stop.total, kTotal + 1);
    }
  }
}

TEST(Limits, SubstrOutputBytesOverflowIsInvalidArgument) {
  // One string of 2^62 bytes taken whole twice would need 2^63 output bytes.
  const StringTensor huge = StringTensor::from_buffers(
      testing::index_buffer({0, k2to62}, Shape{2}, DataType::kInt64),
      TensorBuffer::create_uninitialized(Shape{k2to62}, DataType::kUInt8), Shape{});
  const TensorBuffer once = testing::index_buffer({0}, Shape{1}, DataType::kInt64);
  EXPECT_EQ(core::plan_substr(huge, once, once, SubstrOptions{}).in_chars, k2to62);
  const TensorBuffer twice = testing::index_buffer({0, 0}, Shape{2}, DataType::kInt64);
  EXPECT_EQ(error_text([&] { substr(huge, twice, twice); }),
            "a substr output of shape [2] from 4611686018427387904 input bytes in 1 strings may "
            "hold more bytes than int64 can count");
}

}  // namespace
}  // namespace tensorbuf
