// Fault injection inside the CUDA backend's drivers, run on the host executor: the
// k-th scratch allocation fails (HostExecutor::fail_scratch), for every k of a workload until
// it succeeds. Each failure must surface as ResourceExhaustedError and leave the inputs and the
// buffer being written exactly as they were; the run that succeeds must give exact values.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "core/plan_boolean_mask_update.hpp"
#include "kernels/boolean_mask_update.hpp"
#include "scatter_nd/driver_helpers.hpp"
#include "scatter_nd/helpers.hpp"
#include "substr/helpers.hpp"

namespace tensorbuf {
namespace {

// Runs `attempt(k)` (which makes fault point k fail) for k = 1, 2, ... until it returns
// without throwing; `check(k)` after each ResourceExhaustedError (any other error fails the
// test). Returns the number of fault points, which `attempt` reports on success.
template <class Attempt, class Check>
int inject_scratch_failures(const std::string& workload, Attempt attempt, Check check) {
  for (int k = 1; k <= 64; ++k) {
    int points = -1;
    try {
      points = attempt(k);
    } catch (const ResourceExhaustedError&) {
      check(k);
      continue;
    }
    EXPECT_EQ(points, k - 1) << workload << ": a fault point was not tried";
    std::printf("[ fault points ] %s: %d\n", workload.c_str(), k - 1);
    return k - 1;
  }
  ADD_FAILURE() << workload << ": never succeeded";
  return -1;
}

// ---------------------------------------------------------------------------------------------
// tensor_scatter_nd_*

namespace sc = testing::scatter;

struct ScatterCase {
  const char* name;
  TensorBuffer tensor;
  TensorBuffer indices;
  TensorBuffer updates;
  std::vector<double> expected;  // of tensor_scatter_nd_add
  int inline_points;             // 1 when the index dims live in executor memory (depth > 8)
};

std::vector<double> ramp(std::int64_t n) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  return v;
}

// Depth 1 with a duplicate row, and depth 9 (> kInlineDepth) with a duplicate row.
std::vector<ScatterCase> scatter_cases() {
  std::vector<ScatterCase> cases;
  std::vector<double> shallow = ramp(12);
  for (int j = 0; j < 3; ++j) {
    shallow[static_cast<std::size_t>(3 + j)] += 1 + j + 7 + j;  // rows 0 and 2 hit slice 1
    shallow[static_cast<std::size_t>(9 + j)] += 4 + j;          // row 1 hits slice 3
  }
  cases.push_back({"shallow", sc::make(DataType::kInt32, ramp(12), Shape{4, 3}),
                   sc::make_indices({1, 3, 1}, Shape{3, 1}),
                   sc::make(DataType::kInt32, {1, 2, 3, 4, 5, 6, 7, 8, 9}, Shape{3, 3}), shallow,
                   0});
  const Shape deep_shape({2, 2, 2, 2, 2, 2, 2, 2, 2});
  std::vector<double> deep = ramp(512);
  deep[511] += 10 + 30;  // rows 0 and 2: all ones
  deep[0] += 20;         // row 1: all zeros
  deep[256] += 40;       // row 3: [1, 0, ..., 0]
  cases.push_back({"deep", sc::make(DataType::kInt32, ramp(512), deep_shape),
                   sc::make_indices({1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                     1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0},
                                    Shape{4, 9}),
                   sc::make(DataType::kInt32, {10, 20, 30, 40}, Shape{4}), deep, 1});
  return cases;
}

TEST(DriverFaultInjection, ScatterEveryScratchAllocation) {
  for (const ScatterCase& c : scatter_cases()) {
    for (bool deterministic : {false, true}) {
      for (OutOfBoundsPolicy policy : {OutOfBoundsPolicy::kDrop, OutOfBoundsPolicy::kError}) {
        for (bool in_place : {false, true}) {
          const std::string name = std::string("scatter ") + c.name +
                                   (deterministic ? " deterministic" : " atomic") +
                                   (policy == OutOfBoundsPolicy::kError ? " kError" : " kDrop") +
                                   (in_place ? " in place" : " out of place");
          SCOPED_TRACE(name);
          core::ScatterNdPlan plan =
              core::plan_scatter_nd(core::ScatterOp::kAdd, c.tensor, c.indices, c.updates);
          plan.policy = policy;
          plan.deterministic = deterministic;
          const std::vector<std::uint8_t> tensor_before = sc::bytes_of(c.tensor);
          const std::vector<std::uint8_t> indices_before = sc::bytes_of(c.indices);
          const std::vector<std::uint8_t> updates_before = sc::bytes_of(c.updates);
          // Out of place the output starts as a pattern no run would write.
          const std::vector<std::uint8_t> out_before =
              in_place ? tensor_before : std::vector<std::uint8_t>(tensor_before.size(), 0x5A);
          TensorBuffer out = TensorBuffer::create_fixed_size(c.tensor.shape(), DataType::kInt32);
          auto attempt = [&](int k) {
            std::memcpy(out.mutable_host_bytes(), out_before.data(), out_before.size());
            core::ScatterNdBuffers buffers;
            buffers.indices = c.indices.host_bytes();
            buffers.updates = c.updates.host_bytes();
            buffers.out = out.mutable_host_bytes();
            buffers.tensor = in_place ? buffers.out : c.tensor.host_bytes();
            kernels::HostExecutor executor;
            executor.fail_scratch(k);
            const core::ScatterNdResult r = sc::run_driver(executor, plan, buffers);
            EXPECT_EQ(r.first_bad_index, -1);
            return executor.fault_points();
          };
          const int points = inject_scratch_failures(name, attempt, [&](int k) {
            EXPECT_EQ(sc::bytes_of(out), out_before) << "output written before fault point " << k;
            EXPECT_EQ(sc::bytes_of(c.tensor), tensor_before);
            EXPECT_EQ(sc::bytes_of(c.indices), indices_before);
            EXPECT_EQ(sc::bytes_of(c.updates), updates_before);
          });
          EXPECT_EQ(sc::values_of(out), c.expected);
          // Index table, first-bad cell (kError), keys + rows + the sort's three (deterministic).
          const int expected_points = c.inline_points +
                                      (policy == OutOfBoundsPolicy::kError ? 1 : 0) +
                                      (deterministic ? 5 : 0);
          EXPECT_EQ(points, expected_points);
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// boolean_mask_update

namespace mu = testing::mask_update;

template <class Index>
int mask_workload(const char* name, const TensorBuffer& tensor, const TensorBuffer& mask,
                  const TensorBuffer& updates, const BooleanMaskUpdateOptions& options,
                  bool in_place, const std::vector<double>& expected) {
  const core::BooleanMaskUpdatePlan plan =
      core::plan_boolean_mask_update(tensor, mask, updates, options);
  const std::vector<std::uint8_t> tensor_before = mu::bytes(tensor);
  const std::vector<std::uint8_t> out_before =
      in_place ? tensor_before : std::vector<std::uint8_t>(tensor_before.size(), 0x5A);
  TensorBuffer out = mu::from_bytes(tensor.data_type(), tensor.shape(), out_before);
  const std::string label = std::string("boolean_mask_update ") + name +
                            (sizeof(Index) == 4 ? " int32 scan" : " int64 scan") +
                            (in_place ? " in place" : " out of place");
  SCOPED_TRACE(label);
  auto attempt = [&](int k) {
    std::memcpy(out.mutable_host_bytes(), out_before.data(), out_before.size());
    auto* o = static_cast<std::uint32_t*>(out.mutable_host_bytes());
    const auto* t = in_place ? o : static_cast<const std::uint32_t*>(tensor.host_bytes());
    kernels::HostExecutor executor;
    executor.fail_scratch(k);
    const core::BooleanMaskUpdateResult r =
        kernels::run_boolean_mask_update_carrier<std::uint32_t, Index>(
            executor, plan.layout, plan.required_count,
            static_cast<const std::uint8_t*>(mask.host_bytes()), t,
            static_cast<const std::uint32_t*>(updates.host_bytes()), o);
    EXPECT_TRUE(r.applied());
    return executor.fault_points();
  };
  const int points = inject_scratch_failures(label, attempt, [&](int k) {
    EXPECT_EQ(mu::bytes(out), out_before) << "output written before fault point " << k;
    EXPECT_EQ(mu::bytes(tensor), tensor_before);
  });
  EXPECT_EQ(mu::values(out), expected);
  return points;
}

TEST(DriverFaultInjection, BooleanMaskUpdateEveryScratchAllocation) {
  // B15 on a non-zero tensor: updates [n] + trailing, so the write needs the ranks and n is
  // checked on the host (tile counts, the scan's temporary storage).
  const TensorBuffer tensor = mu::make_f32(Shape{2, 3, 2}, ramp(12));
  const TensorBuffer mask = mu::make_mask(Shape{3}, {0, 1, 1});
  const TensorBuffer rows = mu::make_f32(Shape{2, 2}, {1, 2, 3, 4});
  const TensorBuffer scalar = mu::make_f32(Shape{}, {-1});
  const BooleanMaskUpdateOptions axis1{.axis = 1};
  for (bool in_place : {false, true}) {
    EXPECT_EQ(mask_workload<std::int32_t>("rows", tensor, mask, rows, axis1, in_place,
                                          {0, 1, 1, 2, 3, 4, 6, 7, 1, 2, 3, 4}),
              2);
    EXPECT_EQ(mask_workload<std::int64_t>("rows", tensor, mask, rows, axis1, in_place,
                                          {0, 1, 1, 2, 3, 4, 6, 7, 1, 2, 3, 4}),
              2);
    // A scalar update needs neither the scan nor n: no scratch at all.
    EXPECT_EQ(mask_workload<std::int32_t>("scalar", tensor, mask, scalar, axis1, in_place,
                                          {0, 1, -1, -1, -1, -1, 6, 7, -1, -1, -1, -1}),
              0);
  }
}

// ---------------------------------------------------------------------------------------------
// substr

TEST(DriverFaultInjection, SubstrEveryScratchAllocation) {
  const StringTensor input = StringTensor::from_strings({"Hello", "H\xc3\xa9llo"}, Shape{2});
  const TensorBuffer pos = testing::index_buffer({1}, Shape{}, DataType::kInt32);
  const TensorBuffer len = testing::index_buffer({3}, Shape{}, DataType::kInt32);
  const std::vector<std::uint8_t> offsets_before = mu::bytes(input.offsets());
  const std::vector<std::uint8_t> chars_before = mu::bytes(input.chars());
  struct Mode {
    const char* name;
    SubstrUnit unit;
    std::int64_t lane_threshold;  // 0: lanes per string (the slice counts take scratch)
    testing::Strings expected;
    int points;  // begins, tail, slice counts (lanes, UTF-8 only), the scan's temporary storage
  };
  const Mode modes[] = {
      {"byte", SubstrUnit::kByte, 64, {"ell", "\xc3\xa9l"}, 3},
      {"utf8", SubstrUnit::kUtf8Char, 64, {"ell", "\xc3\xa9ll"}, 3},
      {"utf8 lanes", SubstrUnit::kUtf8Char, 0, {"ell", "\xc3\xa9ll"}, 4},
  };
  for (const Mode& mode : modes) {
    for (bool report : {false, true}) {
      const std::string name = std::string("substr ") + mode.name + (report ? " kError" : " kDrop");
      SCOPED_TRACE(name);
      testing::DriverRun run;
      auto attempt = [&](int k) {
        testing::DriverSettings settings;
        settings.unit = mode.unit;
        settings.report = report;
        settings.lane_threshold = mode.lane_threshold;
        settings.fail_scratch = k;
        run = testing::DriverRun{};
        testing::run_driver(input, pos, len, settings, run);
        return run.fault_points;
      };
      const int points = inject_scratch_failures(name, attempt, [&](int k) {
        EXPECT_EQ(run.allocations, 0);  // the output chars are never allocated
        // The sizes pass writes out_offsets before the scan takes its temporary storage (the
        // last fault point): the op's out_offsets is a fresh buffer, dropped when it throws.
        if (k < mode.points) {
          EXPECT_EQ(run.offsets, std::vector<std::int64_t>(3, -7)) << "fault point " << k;
        }
        EXPECT_EQ(mu::bytes(input.offsets()), offsets_before);
        EXPECT_EQ(mu::bytes(input.chars()), chars_before);
      });
      EXPECT_EQ(points, mode.points);
      EXPECT_EQ(run.values, mode.expected);
      EXPECT_EQ(run.first_bad, -1);
    }
  }
}

}  // namespace
}  // namespace tensorbuf
