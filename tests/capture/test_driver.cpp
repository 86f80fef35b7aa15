// Every capturable form of the CUDA backend's drivers, run on the host executor in capture
// mode (kernels/host_executor.hpp): the driver must not read anything back while its work is
// recorded, and the recorded work, replayed after the inputs' contents change, must give what
// an eager run on the new contents gives. The forms that cannot be captured must throw in
// capture, and core's blocker must name exactly those (core/capture.hpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/capture.hpp"
#include "core/plan_boolean_mask_update.hpp"
#include "core/plan_scatter_nd.hpp"
#include "core/plan_substr.hpp"
#include "kernels/boolean_mask_update.hpp"
#include "kernels/host_executor.hpp"
#include "kernels/substr.hpp"
#include "scatter_nd/driver_helpers.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

constexpr int kReplays = 12;

template <class T>
void randomize(std::vector<T>& v, std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {
  std::uniform_int_distribution<std::int64_t> d(lo, hi);
  for (T& x : v) x = static_cast<T>(d(rng));
}

// A buffer of `shape` whose contents do not matter: plans read shapes only.
TensorBuffer shaped(const Shape& shape, DataType type) {
  return TensorBuffer::create_fixed_size(shape, type);
}

// ---------------------------------------------------------------------------------------------
// tensor_scatter_nd_* (kDrop: kError reads the first bad row back)

struct ScatterVectors {
  std::vector<std::int32_t> tensor = std::vector<std::int32_t>(16 * 3);
  std::vector<std::int64_t> indices = std::vector<std::int64_t>(10);
  std::vector<std::int32_t> updates = std::vector<std::int32_t>(10 * 3);
  std::vector<std::int32_t> out = std::vector<std::int32_t>(16 * 3);
};

core::ScatterNdBuffers scatter_buffers(ScatterVectors& v, bool in_place) {
  core::ScatterNdBuffers b;
  b.indices = v.indices.data();
  b.updates = v.updates.data();
  b.out = v.out.data();
  b.tensor = in_place ? b.out : v.tensor.data();
  return b;
}

core::ScatterNdPlan scatter_plan(core::ScatterOp op, OutOfBoundsPolicy policy, bool deterministic) {
  core::ScatterNdPlan plan = core::plan_scatter_nd(op, shaped(Shape{16, 3}, DataType::kInt32),
                                                   shaped(Shape{10, 1}, DataType::kInt64),
                                                   shaped(Shape{10, 3}, DataType::kInt32));
  plan.policy = policy;
  plan.deterministic = deterministic;
  return plan;
}

TEST(CaptureDriver, ScatterEveryOpReplaysWithNewInputs) {
  for (int op = 0; op < 5; ++op) {
    for (bool deterministic : {false, true}) {
      for (bool in_place : {false, true}) {
        SCOPED_TRACE(std::string(core::scatter_op_name(static_cast<core::ScatterOp>(op))) +
                     (deterministic ? " deterministic" : " atomic") +
                     (in_place ? " in place" : " out of place"));
        const core::ScatterNdPlan plan =
            scatter_plan(static_cast<core::ScatterOp>(op), OutOfBoundsPolicy::kDrop, deterministic);
        ASSERT_EQ(core::scatter_nd_capture_blocker(plan), nullptr);
        std::mt19937_64 rng(7 + op);
        ScatterVectors live;
        kernels::HostExecutor graph;
        graph.begin_capture();
        testing::scatter::run_driver(graph, plan, scatter_buffers(live, in_place));
        graph.end_capture();
        EXPECT_EQ(graph.reads(), 0);
        EXPECT_GT(graph.captured_steps(), 0u);
        for (int round = 0; round < kReplays; ++round) {
          randomize(live.tensor, rng, -50, 50);
          randomize(live.out, rng, -50, 50);
          randomize(live.indices, rng, -2, 17);  // some rows out of range: dropped
          randomize(live.updates, rng, -9, 9);
          ScatterVectors eager = live;
          kernels::HostExecutor now;
          testing::scatter::run_driver(now, plan, scatter_buffers(eager, in_place));
          graph.replay();
          ASSERT_EQ(live.out, eager.out) << "round " << round;
        }
      }
    }
  }
}

TEST(CaptureDriver, ScatterKErrorReadsBackSoItIsBlocked) {
  const core::ScatterNdPlan plan =
      scatter_plan(core::ScatterOp::kAdd, OutOfBoundsPolicy::kError, false);
  EXPECT_NE(core::scatter_nd_capture_blocker(plan), nullptr);
  ScatterVectors live;
  kernels::HostExecutor graph;
  graph.begin_capture();
  EXPECT_THROW(testing::scatter::run_driver(graph, plan, scatter_buffers(live, false)),
               InternalError);
}


// ---------------------------------------------------------------------------------------------
// boolean_mask_update (capturable when updates' shape does not depend on n)

struct MaskForm {
  const char* name;
  Shape tensor;
  Shape mask;
  Shape updates;  // its dim aligned with n, if any, is given for n = updates_n
  int axis;
  DataType dtype;
};

std::int64_t count_true(const std::vector<std::uint8_t>& mask) {
  std::int64_t n = 0;
  for (std::uint8_t b : mask) n += b != 0 ? 1 : 0;
  return n;
}

TEST(CaptureDriver, MaskUpdateBroadcastFormsReplayWithNewMasks) {
  const std::vector<MaskForm> forms = {
      {"rows, scalar updates", Shape{64, 4}, Shape{64}, Shape{}, 0, DataType::kFloat32},
      {"rows, one row of updates", Shape{64, 4}, Shape{64}, Shape{4}, 0, DataType::kFloat32},
      {"rows, [1, 4] updates", Shape{64, 4}, Shape{64}, Shape{1, 4}, 0, DataType::kInt16},
      {"flat bytes", Shape{301}, Shape{301}, Shape{}, 0, DataType::kUInt8},
      {"flat wide rows", Shape{40, 16}, Shape{40}, Shape{16}, 0, DataType::kFloat64},
      {"axis 1", Shape{3, 20, 2}, Shape{20}, Shape{2}, 1, DataType::kInt32},
      {"2-D mask", Shape{4, 5, 3}, Shape{4, 5}, Shape{1, 3}, 0, DataType::kFloat32},
  };
  for (const MaskForm& form : forms) {
    for (bool in_place : {false, true}) {
      for (kernels::MaskUpdatePass pass :
           {kernels::MaskUpdatePass::kElements, kernels::MaskUpdatePass::kTiles,
            kernels::MaskUpdatePass::kCopyThenTiles}) {
        SCOPED_TRACE(std::string(form.name) + (in_place ? " in place" : " out of place") +
                     ", pass " + std::to_string(static_cast<int>(pass)));
        BooleanMaskUpdateOptions options;
        options.axis = form.axis;
        const core::BooleanMaskUpdatePlan plan = core::plan_boolean_mask_update(
            shaped(form.tensor, form.dtype), shaped(form.mask, DataType::kBool),
            shaped(form.updates, form.dtype), options, /*mask_count=*/0);
        ASSERT_EQ(core::mask_update_capture_blocker(plan), nullptr);
        const std::size_t element = plan.element_size;
        std::mt19937_64 rng(21);
        std::vector<std::uint8_t> tensor(form.tensor.num_elements() * element);
        std::vector<std::uint8_t> mask(form.mask.num_elements());
        std::vector<std::uint8_t> updates(form.updates.num_elements() * element);
        std::vector<std::uint8_t> out(tensor.size());
        auto buffers_of = [&](std::vector<std::uint8_t>& t, std::vector<std::uint8_t>& m,
                              std::vector<std::uint8_t>& u, std::vector<std::uint8_t>& o) {
          core::BooleanMaskUpdateBuffers b;
          b.mask = m.data();
          b.updates = u.data();
          b.out = o.data();
          b.tensor = in_place ? o.data() : t.data();
          return b;
        };
        kernels::HostExecutor graph;
        graph.begin_capture();
        const core::BooleanMaskUpdateResult captured = kernels::run_boolean_mask_update(
            graph, plan, buffers_of(tensor, mask, updates, out), pass);
        graph.end_capture();
        EXPECT_TRUE(captured.applied());
        EXPECT_EQ(graph.reads(), 0);
        for (int round = 0; round < kReplays; ++round) {
          randomize(tensor, rng, 0, 255);
          randomize(out, rng, 0, 255);
          randomize(updates, rng, 0, 255);
          // Densities from empty to full, and mask bytes other than 1 (any nonzero is true).
          std::bernoulli_distribution bit(round / static_cast<double>(kReplays - 1));
          for (std::uint8_t& b : mask)
            b = bit(rng) ? static_cast<std::uint8_t>(1 + rng() % 255) : 0;
          std::vector<std::uint8_t> t = tensor, m = mask, u = updates, o = out;
          kernels::HostExecutor now;
          kernels::run_boolean_mask_update(now, plan, buffers_of(t, m, u, o), pass);
          graph.replay();
          ASSERT_EQ(out, o) << "round " << round << ", n = " << count_true(mask);
        }
      }
    }
  }
}

TEST(CaptureDriver, MaskUpdateWithUpdatesOfSizeNIsBlocked) {
  const core::BooleanMaskUpdatePlan plan = core::plan_boolean_mask_update(
      shaped(Shape{8, 2}, DataType::kFloat32), shaped(Shape{8}, DataType::kBool),
      shaped(Shape{3, 2}, DataType::kFloat32), BooleanMaskUpdateOptions{}, /*mask_count=*/3);
  ASSERT_GE(plan.required_count, 0);
  EXPECT_NE(core::mask_update_capture_blocker(plan), nullptr);
  std::vector<float> tensor(16), updates(6), out(16);
  std::vector<std::uint8_t> mask(8, 1);
  core::BooleanMaskUpdateBuffers b{tensor.data(), mask.data(), updates.data(), out.data()};
  kernels::HostExecutor graph;
  graph.begin_capture();
  EXPECT_THROW(kernels::run_boolean_mask_update(graph, plan, b), InternalError);
}

// ---------------------------------------------------------------------------------------------
// substr: the bounded form (chars allocated at core::substr_chars_bound, no total read back)

struct SubstrVectors {
  std::vector<std::int64_t> offsets;
  std::vector<std::uint8_t> chars;
  std::vector<std::int32_t> pos;
  std::vector<std::int32_t> len;
};

// Bytes that are often UTF-8 continuation bytes, so character starts vary.
void randomize_strings(SubstrVectors& v, std::mt19937_64& rng) {
  for (std::uint8_t& c : v.chars) {
    const auto r = rng();
    c = static_cast<std::uint8_t>(r % 3 == 0 ? 0x80 + (r >> 8) % 64 : 'a' + (r >> 8) % 26);
  }
  randomize(v.pos, rng, -60, 60);  // some out of range: dropped
  randomize(v.len, rng, -3, 50);
}

std::vector<std::string> strings_of(const std::vector<std::int64_t>& offsets,
                                    const std::uint8_t* chars, std::int64_t n) {
  std::vector<std::string> out;
  for (std::int64_t i = 0; i < n; ++i) {
    out.emplace_back(reinterpret_cast<const char*>(chars) + offsets[i],
                     static_cast<std::size_t>(offsets[i + 1] - offsets[i]));
  }
  return out;
}

TEST(CaptureDriver, SubstrBoundedFormReplaysWithNewInputs) {
  constexpr std::int64_t kStrings = 24;
  struct PosForm {
    const char* name;
    Shape pos;
  };
  const std::vector<PosForm> pos_forms = {
      {"scalar pos", Shape{}}, {"per-element pos", Shape{kStrings}}, {"broadcast x3", Shape{3, 1}}};
  for (SubstrUnit unit : {SubstrUnit::kByte, SubstrUnit::kUtf8Char}) {
    for (const PosForm& form : pos_forms) {
      for (std::int64_t lanes : {std::int64_t{0}, std::int64_t{64}, INT64_MAX}) {
        SCOPED_TRACE(std::string(unit == SubstrUnit::kByte ? "byte " : "utf8 ") + form.name +
                     ", lane threshold " + std::to_string(lanes));
        std::mt19937_64 rng(5);
        std::vector<std::string> initial;
        for (std::int64_t i = 0; i < kStrings; ++i) initial.push_back(std::string(rng() % 90, 'x'));
        const StringTensor input = StringTensor::from_strings(initial, Shape{kStrings});
        SubstrOptions options;
        options.unit = unit;
        core::SubstrPlan plan = core::plan_substr(input, shaped(form.pos, DataType::kInt32),
                                                  shaped(form.pos, DataType::kInt32), options);
        plan.policy = OutOfBoundsPolicy::kDrop;
        const std::int64_t bound = core::substr_chars_bound(plan);
        ASSERT_GE(bound, 0);
        SubstrVectors live;
        const auto* offsets = input.offsets().host<std::int64_t>();
        live.offsets.assign(offsets, offsets + kStrings + 1);
        live.chars.resize(static_cast<std::size_t>(input.num_chars()));
        live.pos.resize(static_cast<std::size_t>(form.pos.num_elements()));
        live.len.resize(live.pos.size());
        std::vector<std::int64_t> out_offsets(static_cast<std::size_t>(plan.out_size + 1));
        std::vector<std::uint8_t> out_chars;
        auto buffers_of = [](SubstrVectors& v, std::vector<std::int64_t>& o) {
          core::SubstrBuffers b;
          b.in_offsets = v.offsets.data();
          b.in_chars = v.chars.data();
          b.pos = v.pos.data();
          b.len = v.len.data();
          b.out_offsets = o.data();
          return b;
        };
        kernels::SubstrDriverConfig config;
        config.lane_threshold = lanes;
        config.capacity = bound;
        config.lane_scan = lanes == 0;  // the lane-scan variant, where every string has lanes
        kernels::HostExecutor graph;
        graph.begin_capture();
        const core::SubstrResult captured = kernels::run_substr<std::int32_t>(
            graph, plan, buffers_of(live, out_offsets),
            [&](std::int64_t total) {
              out_chars.assign(static_cast<std::size_t>(total), 0xEE);
              return out_chars.data();
            },
            config);
        graph.end_capture();
        EXPECT_EQ(graph.reads(), 0);
        EXPECT_EQ(captured.total_bytes, -1);
        EXPECT_EQ(static_cast<std::int64_t>(out_chars.size()), bound);
        for (int round = 0; round < kReplays; ++round) {
          randomize_strings(live, rng);
          SubstrVectors eager = live;
          std::vector<std::int64_t> eager_offsets(out_offsets.size());
          std::vector<std::uint8_t> eager_chars;
          kernels::HostExecutor now;
          kernels::SubstrDriverConfig sync_config;
          sync_config.lane_threshold = lanes;
          kernels::run_substr<std::int32_t>(
              now, plan, buffers_of(eager, eager_offsets),
              [&](std::int64_t total) {
                eager_chars.assign(static_cast<std::size_t>(total), 0);
                return eager_chars.data();
              },
              sync_config);
          graph.replay();
          ASSERT_LE(out_offsets.back(), bound);
          ASSERT_EQ(strings_of(out_offsets, out_chars.data(), plan.out_size),
                    strings_of(eager_offsets, eager_chars.data(), plan.out_size))
              << "round " << round;
        }
      }
    }
  }
}

TEST(CaptureDriver, SubstrBoundIsKeptOnlyUpToFourTimesTheInput) {
  const StringTensor input = StringTensor::from_strings({"abc", "de"}, Shape{2});
  SubstrOptions options;
  auto plan_for = [&](const Shape& pos_shape, OutOfBoundsPolicy policy) {
    core::SubstrPlan plan = core::plan_substr(input, shaped(pos_shape, DataType::kInt32),
                                              shaped(pos_shape, DataType::kInt32), options);
    plan.policy = policy;
    return plan;
  };
  EXPECT_EQ(core::substr_chars_bound(plan_for(Shape{}, OutOfBoundsPolicy::kDrop)), 5);
  EXPECT_EQ(core::substr_chars_bound(plan_for(Shape{4, 1}, OutOfBoundsPolicy::kDrop)), 20);
  EXPECT_EQ(core::substr_chars_bound(plan_for(Shape{5, 1}, OutOfBoundsPolicy::kDrop)), -1);
  EXPECT_EQ(core::substr_chars_bound(plan_for(Shape{}, OutOfBoundsPolicy::kError)), -1);
  EXPECT_EQ(core::substr_chars_bound(plan_for(Shape{0, 1}, OutOfBoundsPolicy::kDrop)), 0);
}

TEST(CaptureDriver, SubstrKErrorReadsBackSoItIsBlocked) {
  const StringTensor input = StringTensor::from_strings({"abc", "de"}, Shape{2});
  core::SubstrPlan plan = core::plan_substr(input, shaped(Shape{}, DataType::kInt32),
                                            shaped(Shape{}, DataType::kInt32), SubstrOptions{});
  plan.policy = OutOfBoundsPolicy::kError;
  EXPECT_NE(core::substr_capture_blocker(plan), nullptr);
  std::vector<std::int64_t> offsets = {0, 3, 5}, out_offsets(3);
  std::vector<std::uint8_t> chars = {'a', 'b', 'c', 'd', 'e'}, out_chars(5);
  std::int32_t pos = 1, len = 1;
  core::SubstrBuffers b{offsets.data(), chars.data(), &pos, &len, out_offsets.data()};
  kernels::HostExecutor graph;
  graph.begin_capture();
  kernels::SubstrDriverConfig config;
  config.capacity = 5;  // ignored under kError
  EXPECT_THROW(kernels::run_substr<std::int32_t>(
                   graph, plan, b, [&](std::int64_t) { return out_chars.data(); }, config),
               InternalError);
}

}  // namespace
}  // namespace tensorbuf
