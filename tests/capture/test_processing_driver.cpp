// The processing ops' CUDA drivers (kernels/process_chain.hpp, quantize_linear.hpp) recorded on
// the host executor in capture mode: no read-back while recording (their tables are written by
// kernels), and the recorded work, replayed after the input changes, gives an eager run's bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "core/process_execute.hpp"
#include "core/quantize_linear_plan.hpp"
#include "kernels/host_executor.hpp"
#include "kernels/process_chain.hpp"
#include "kernels/quantize_linear.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

constexpr int kReplays = 8;

TEST(CaptureDriver, ProcessorChainsReplayWithNewInputs) {
  // Inline parameters (3 channels), tables (7 channels), and a chain of several launches.
  std::vector<ProcessStep> long_chain;
  for (int s = 0; s < 2 * kernels::kChainStages + 1; ++s) {
    long_chain.push_back(s % 2 ? cast_op(DataType::kFloat16) : normalize_op(0.5f, 1.5f));
  }
  const std::vector<std::vector<ProcessStep>> chains = {
      {normalize_op({127.5f, 120.0f, 100.0f}, {127.5f, 60.0f, 2.0f}), cast_op(DataType::kFloat16)},
      {normalize_op({1, 2, 3, 4, 5, 6, 7}, {7, 6, 5, 4, 3, 2, 1}), cast_op(DataType::kInt8)},
      long_chain};
  const std::int64_t channels[] = {3, 7, 3};
  std::mt19937 rng(4);
  for (std::size_t k = 0; k < chains.size(); ++k) {
    SCOPED_TRACE(k);
    const Shape shape{5, channels[k]};
    TensorBuffer x = TensorBuffer::create_fixed_size(shape, DataType::kUInt8);
    const core::ProcessorRun run = core::plan_processor_run(chains[k], x);
    std::vector<std::uint8_t> in(static_cast<std::size_t>(shape.num_elements()));
    const std::size_t out_bytes = in.size() * type_size(run.plan.out_type);
    std::vector<std::uint8_t> live(out_bytes);
    kernels::HostExecutor graph;
    graph.begin_capture();
    kernels::run_process(graph, run.plan, {in.data(), live.data()});
    graph.end_capture();
    EXPECT_EQ(graph.reads(), 0);
    EXPECT_GT(graph.captured_steps(), 0u);
    for (int round = 0; round < kReplays; ++round) {
      for (auto& b : in) b = static_cast<std::uint8_t>(rng());
      std::vector<std::uint8_t> eager(out_bytes);
      kernels::HostExecutor now;
      kernels::run_process(now, run.plan, {in.data(), eager.data()});
      graph.replay();
      ASSERT_EQ(live, eager) << "round " << round;
    }
  }
}

TensorBuffer vector_of(DataType type, const std::vector<double>& values) {
  TensorBuffer f64 =
      TensorBuffer::create_fixed_size({static_cast<std::int64_t>(values.size())}, DataType::kFloat64);
  std::copy(values.begin(), values.end(), f64.mutable_host<double>());
  return TensorBuffer::create_from(f64, type);
}

TEST(CaptureDriver, QuantizeLinearPerAxisReplaysWithNewInputs) {
  const TensorBuffer x = TensorBuffer::create_fixed_size({4, 3}, DataType::kFloat32);
  const TensorBuffer s = vector_of(DataType::kFloat32, {0.5, 0.25, 3.0});
  const TensorBuffer z = vector_of(DataType::kInt8, {0, -3, 7});
  const core::LinearPlan plan = core::plan_quantize_linear(x, s, z, {});
  const core::LinearPlan back = core::plan_dequantize_linear(
      TensorBuffer::create_fixed_size({4, 3}, DataType::kInt8), s, z, {});
  std::vector<float> in(12);
  std::vector<std::int8_t> q(12);
  std::vector<float> y(12);
  kernels::HostExecutor graph;
  graph.begin_capture();
  kernels::run_quantize_linear(graph, plan, {in.data(), q.data()});
  kernels::run_dequantize_linear(graph, back, {q.data(), y.data()});
  graph.end_capture();
  EXPECT_EQ(graph.reads(), 0);
  std::mt19937 rng(8);
  std::uniform_real_distribution<float> u(-100.0f, 100.0f);
  for (int round = 0; round < kReplays; ++round) {
    for (float& v : in) v = u(rng);
    std::vector<std::int8_t> q_eager(12);
    std::vector<float> y_eager(12);
    kernels::HostExecutor now;
    kernels::run_quantize_linear(now, plan, {in.data(), q_eager.data()});
    kernels::run_dequantize_linear(now, back, {q_eager.data(), y_eager.data()});
    graph.replay();
    ASSERT_EQ(q, q_eager) << "round " << round;
    ASSERT_EQ(y, y_eager) << "round " << round;
  }
}

}  // namespace
}  // namespace tensorbuf
