// The CUDA backend on a GPU (skipped without one; TENSORBUF_REQUIRE_CUDA=1 makes that a
// failure): results against the CPU, and the steady state on device-resident inputs (no host
// copies, no host waits under kDrop, no device allocations).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "scatter_nd/helpers.hpp"
#include "support/devices.hpp"

namespace tensorbuf {
namespace {

using namespace testing::scatter;  // NOLINT(google-build-using-namespace)
using DT = DataType;

class ScatterNdCUDA : public ::testing::Test {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(Device::cuda(0)); }
};

struct Inputs {
  TensorBuffer tensor = TensorBuffer::create_dynamic(DT::kFloat32);
  TensorBuffer indices = TensorBuffer::create_dynamic(DT::kInt32);
  TensorBuffer updates = TensorBuffer::create_dynamic(DT::kFloat32);
  std::vector<double> table;    // the values above, before conversion to the dtype
  std::vector<double> update_values;
  std::vector<std::int64_t> rows;  // the index of each update row
};

// A [slices, width] table and `rows` random slice updates (some duplicates, some bad).
Inputs make_inputs(DT type, std::int64_t slices, std::int64_t width, std::int64_t rows,
                   bool with_bad, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> table(static_cast<std::size_t>(slices * width));
  std::vector<double> updates(static_cast<std::size_t>(rows * width));
  for (double& v : table) v = static_cast<double>(static_cast<int>(rng() % 200) - 100);
  for (double& v : updates) v = static_cast<double>(static_cast<int>(rng() % 200) - 100) / 4;
  if (type != DT::kFloat16 && type != DT::kBFloat16 && type != DT::kFloat32 &&
      type != DT::kFloat64) {
    for (double& v : updates) v = std::floor(v);
  }
  if (type == DT::kUInt8) {
    for (double& v : table) v = std::abs(v);
    for (double& v : updates) v = std::abs(v);
  }
  std::vector<std::int64_t> index(static_cast<std::size_t>(rows));
  for (std::int64_t& i : index) {
    i = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(slices));
    if (with_bad && rng() % 50 == 0) i = slices + static_cast<std::int64_t>(rng() % 3);
  }
  Inputs in;
  in.tensor = make(type, table, {slices, width});
  in.indices = make_indices(index, {rows, 1}, DT::kInt64);
  in.updates = make(type, updates, {rows, width});
  in.table = table;
  in.update_values = updates;
  in.rows = index;
  return in;
}

TEST_F(ScatterNdCUDA, DeterministicEqualsCpuBitForBit) {
  for (DT type : {DT::kFloat32, DT::kFloat16, DT::kBFloat16, DT::kFloat64, DT::kInt8, DT::kInt32}) {
    for (Op op : all_ops()) {
      SCOPED_TRACE(::testing::Message() << to_string(type) << " " << op_name(op));
      Inputs in = make_inputs(type, 1000, 7, 20000, true, 42);
      const ScatterOptions drop{.out_of_bounds = OutOfBoundsPolicy::kDrop};
      TensorBuffer cpu = out_of_place(op)(
          in.tensor, in.indices, in.updates,
          ScatterOptions{.device = Device::cpu(), .out_of_bounds = OutOfBoundsPolicy::kDrop});
      ScatterOptions det = drop;
      det.device = Device::cuda(0);
      det.deterministic = true;
      EXPECT_TRUE(same_values(out_of_place(op)(in.tensor, in.indices, in.updates, det), cpu));
      TensorBuffer target = in.tensor.clone();
      in_place(op)(target, in.indices, in.updates, det);
      EXPECT_TRUE(same_values(target, cpu));
    }
  }
}

std::vector<std::pair<Op, std::int64_t>> op_width_pairs() {
  std::vector<std::pair<Op, std::int64_t>> pairs;
  for (Op op : {Op::kSub, Op::kAdd, Op::kMin, Op::kMax}) {
    for (std::int64_t width : {5, 8}) pairs.emplace_back(op, width);
  }
  return pairs;
}

TEST_F(ScatterNdCUDA, AtomicsMatchCpuWhereOrderDoesNotMatter) {
  for (DT type : {DT::kUInt8, DT::kInt8, DT::kInt16, DT::kInt32, DT::kInt64, DT::kFloat32,
                  DT::kFloat64, DT::kFloat16, DT::kBFloat16}) {
    // Width 8 takes the packed float4 / half2 / bfloat162 atomics of add and sub, 5 the scalar.
    for (const auto& [op, width] : op_width_pairs()) {
      const bool is_float = type == DT::kFloat16 || type == DT::kBFloat16 || type == DT::kFloat32 ||
                            type == DT::kFloat64;
      SCOPED_TRACE(::testing::Message() << to_string(type) << " " << op_name(op) << " width "
                                        << width);
      Inputs in = make_inputs(type, 300, width, 5000, true, 7);
      TensorBuffer cpu = out_of_place(op)(
          in.tensor, in.indices, in.updates,
          ScatterOptions{.device = Device::cpu(), .out_of_bounds = OutOfBoundsPolicy::kDrop});
      TensorBuffer gpu = out_of_place(op)(in.tensor, in.indices, in.updates,
                                          ScatterOptions{.device = Device::cuda(0)});
      if (!is_float || op == Op::kMin || op == Op::kMax) {
        EXPECT_TRUE(same_values(gpu, cpu));
      } else {
        // Any order of the additions is a right answer. Each order's rounding error is at most
        // k * u * (|t| + sum |u_j|) for k additions in unit roundoff u (recursive summation),
        // so two orders differ by at most twice that.
        const double unit_roundoff = type == DT::kFloat64   ? 0x1p-53
                                     : type == DT::kFloat32 ? 0x1p-24
                                     : type == DT::kFloat16 ? 0x1p-11
                                                            : 0x1p-8;
        std::vector<double> magnitude(in.table.size());
        std::vector<double> additions(in.table.size(), 0.0);
        for (std::size_t i = 0; i < magnitude.size(); ++i) magnitude[i] = std::abs(in.table[i]);
        for (std::size_t r = 0; r < in.rows.size(); ++r) {
          const std::int64_t row = in.rows[r];
          if (row < 0 || row * width >= static_cast<std::int64_t>(magnitude.size())) continue;
          for (std::int64_t e = 0; e < width; ++e) {
            const auto at = static_cast<std::size_t>(row * width + e);
            magnitude[at] += std::abs(in.update_values[r * static_cast<std::size_t>(width) +
                                                       static_cast<std::size_t>(e)]);
            additions[at] += 1;
          }
        }
        const std::vector<double> a = values_of(gpu);
        const std::vector<double> b = values_of(cpu);
        for (std::size_t i = 0; i < a.size(); ++i) {
          const double bound = 2 * additions[i] * unit_roundoff * magnitude[i];
          ASSERT_LE(std::abs(a[i] - b[i]), bound) << i;
        }
      }
    }
  }
}

// mul's atomics are compare-and-swap loops for every dtype. Integer products wrap, which is
// commutative and associative modulo 2^n: exact in any order. A float product of k factors
// in any order is the exact product times (1 + d), |d| <= k u (to first order): two orders
// differ by at most about 2 k u of it. Factors of magnitude 0.5-2, few per element, keep
// float16 away from overflow and subnormals, where that bound would not hold.
TEST_F(ScatterNdCUDA, MulAtomicsMatchCpu) {
  for (DT type : {DT::kUInt8, DT::kInt8, DT::kInt16, DT::kInt32, DT::kInt64, DT::kFloat32,
                  DT::kFloat64, DT::kFloat16, DT::kBFloat16}) {
    const bool is_float = type == DT::kFloat16 || type == DT::kBFloat16 || type == DT::kFloat32 ||
                          type == DT::kFloat64;
    for (std::int64_t width : {1, 5, 8}) {
      SCOPED_TRACE(::testing::Message() << to_string(type) << " width " << width);
      const std::int64_t slices = 300;
      const std::int64_t rows = 1200;
      std::mt19937_64 rng(11);
      auto value = [&] {
        if (!is_float) {  // -3..3 (uint8: 0..6)
          const int offset = type == DT::kUInt8 ? 0 : -3;
          return static_cast<double>(static_cast<int>(rng() % 7) + offset);
        }
        const double magnitude = 0.5 + static_cast<double>(rng() % 1500) / 1000.0;
        return rng() % 2 == 0 ? magnitude : -magnitude;
      };
      std::vector<double> table(static_cast<std::size_t>(slices * width));
      std::vector<double> updates(static_cast<std::size_t>(rows * width));
      for (double& v : table) v = value();
      for (double& v : updates) v = value();
      std::vector<std::int64_t> index(static_cast<std::size_t>(rows));
      std::vector<double> factors(table.size(), 1.0);
      for (std::int64_t& i : index) {
        i = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(slices + 2));  // 2 bad
        for (std::int64_t e = 0; e < width && i < slices; ++e) {
          factors[static_cast<std::size_t>(i * width + e)] += 1;
        }
      }
      const TensorBuffer tensor = make(type, table, {slices, width});
      const TensorBuffer indices = make_indices(index, {rows, 1}, DT::kInt64);
      const TensorBuffer update_buffer = make(type, updates, {rows, width});
      const TensorBuffer cpu = tensor_scatter_nd_mul(
          tensor, indices, update_buffer,
          ScatterOptions{.device = Device::cpu(), .out_of_bounds = OutOfBoundsPolicy::kDrop});
      TensorBuffer gpu = tensor_scatter_nd_mul(tensor, indices, update_buffer,
                                               ScatterOptions{.device = Device::cuda(0)});
      TensorBuffer target = tensor.clone();
      tensor_scatter_nd_mul_in_place(target, indices, update_buffer,
                                     ScatterOptions{.device = Device::cuda(0)});
      if (!is_float) {
        EXPECT_TRUE(same_values(gpu, cpu));
        EXPECT_TRUE(same_values(target, cpu));
        continue;
      }
      const double unit_roundoff = type == DT::kFloat64   ? 0x1p-53
                                   : type == DT::kFloat32 ? 0x1p-24
                                   : type == DT::kFloat16 ? 0x1p-11
                                                          : 0x1p-8;
      const std::vector<double> expected = values_of(cpu);
      for (const TensorBuffer* result : {&gpu, &target}) {
        const std::vector<double> got = values_of(*result);
        for (std::size_t i = 0; i < got.size(); ++i) {
          const double bound = 2.5 * factors[i] * unit_roundoff * std::abs(expected[i]);
          ASSERT_LE(std::abs(got[i] - expected[i]), bound) << i;
        }
      }
    }
  }
}

TEST_F(ScatterNdCUDA, ErrorPolicyRaisesTheCpuMessage) {
  TensorBuffer tensor = make(DT::kFloat32, {0, 0, 0, 0}, {4});
  TensorBuffer indices = make_indices({0, 1, 9, 2}, {2, 2, 1});
  TensorBuffer updates = make(DT::kFloat32, {1, 1, 1, 1}, {2, 2});
  for (bool deterministic : {false, true}) {
    const ScatterOptions options{.device = Device::cuda(0),
                                 .out_of_bounds = OutOfBoundsPolicy::kError,
                                 .deterministic = deterministic};
    try {
      tensor_scatter_nd_sub(tensor, indices, updates, options);
      ADD_FAILURE() << "no error";
    } catch (const InvalidArgumentError& e) {
      EXPECT_EQ(std::string(e.what()), "indices[1,0] = [9] does not index into shape [4]");
    }
    TensorBuffer target = tensor.clone();
    target.sync_to(Device::cuda(0));
    EXPECT_THROW(tensor_scatter_nd_sub_in_place(target, indices, updates, options),
                 InvalidArgumentError);
    EXPECT_EQ(values_of(target), (std::vector<double>{0, 0, 0, 0}));
  }
}

TEST_F(ScatterNdCUDA, SteadyStateNeedsNoHostCopiesWaitsOrAllocations) {
  Inputs in = make_inputs(DT::kFloat32, 4096, 64, 10000, true, 3);
  for (const TensorBuffer* b : {&in.tensor, &in.indices, &in.updates}) b->sync_to(Device::cuda(0));
  TensorBuffer target = in.tensor.clone();
  target.sync_to(Device::cuda(0));
  target.mutable_device<float>();  // device-only valid, as after device work
  for (bool deterministic : {false, true}) {
    SCOPED_TRACE(deterministic ? "deterministic" : "atomics");
    const ScatterOptions options{.device = Device::cuda(0),
                                 .out_of_bounds = OutOfBoundsPolicy::kDrop,
                                 .deterministic = deterministic};
    // Warm-up: fills the caching allocator.
    { TensorBuffer warm = tensor_scatter_nd_sub(in.tensor, in.indices, in.updates, options); }
    tensor_scatter_nd_sub_in_place(target, in.indices, in.updates, options);
    reset_stats();
    TensorBuffer out = tensor_scatter_nd_sub(in.tensor, in.indices, in.updates, options);
    tensor_scatter_nd_sub_in_place(target, in.indices, in.updates, options);
    const Stats s = stats();
    EXPECT_EQ(s.host_to_device_copies, 0);
    EXPECT_EQ(s.device_to_host_copies, 0);
    EXPECT_EQ(s.host_waits, 0);
    EXPECT_EQ(s.device_allocations, 0);
    EXPECT_TRUE(out.is_valid_on(Device::cuda(0)));
    EXPECT_FALSE(out.is_valid_on(Device::cpu()));
  }
  // kError: exactly one wait (the first bad row's read-back), on good rows.
  Inputs good = make_inputs(DT::kFloat32, 4096, 64, 10000, false, 4);
  for (const TensorBuffer* b : {&good.tensor, &good.indices, &good.updates}) {
    b->sync_to(Device::cuda(0));
  }
  const ScatterOptions error{.device = Device::cuda(0), .out_of_bounds = OutOfBoundsPolicy::kError};
  { TensorBuffer warm = tensor_scatter_nd_add(good.tensor, good.indices, good.updates, error); }
  reset_stats();
  TensorBuffer out = tensor_scatter_nd_add(good.tensor, good.indices, good.updates, error);
  EXPECT_EQ(stats().host_waits, 1);
  EXPECT_EQ(stats().device_allocations, 0);
  EXPECT_EQ(stats().host_to_device_copies, 0);
}

TEST_F(ScatterNdCUDA, DefaultDeviceFollowsTheTensor) {
  TensorBuffer tensor = make(DT::kFloat32, {0, 0, 0, 0, 0}, {5});
  tensor.sync_to(Device::cuda(0));
  tensor.mutable_device<float>();
  // Runs on CUDA (the tensor lives there), so the bad rows are dropped.
  TensorBuffer out = tensor_scatter_nd_sub(tensor, make_indices({0, 5, 2, -1}, {4, 1}),
                                           make(DT::kFloat32, {1, 2, 3, 4}, {4}));
  EXPECT_EQ(values_of(out), (std::vector<double>{-1, 0, -3, 0, 0}));
}

}  // namespace
}  // namespace tensorbuf
