// The CUDA backend's drivers of the processing ops (src/kernels/process_chain.hpp,
// quantize_linear.hpp) run on the host executor: bit-equal to the CPU results for every dtype
// pair of a cast, every random chain (the Processor's own plans, long chains split into several
// launches, the per-channel tables), and quantize_linear / dequantize_linear for every input and
// output dtype, per tensor and per axis. On a GPU, the ops themselves against the CPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/process_execute.hpp"
#include "core/quantize_linear_plan.hpp"
#include "kernels/host_executor.hpp"
#include "kernels/process_chain.hpp"
#include "kernels/quantize_linear.hpp"
#include "support/devices.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

const std::vector<DataType> kTypes = {DataType::kBool,    DataType::kUInt8,    DataType::kInt8,
                                      DataType::kInt16,   DataType::kInt32,    DataType::kInt64,
                                      DataType::kFloat16, DataType::kBFloat16, DataType::kFloat32,
                                      DataType::kFloat64};

bool is_floating(DataType t) {
  return t == DataType::kFloat16 || t == DataType::kBFloat16 || t == DataType::kFloat32 ||
         t == DataType::kFloat64;
}

// Values of every kind a dtype holds: raw bit patterns (NaN payloads, subnormals, extremes, any
// bool byte), and for the floating dtypes values around the integer dtypes' limits, halves
// (rounding ties), infinities and signed zeros.
TensorBuffer random_input(std::mt19937_64& rng, const Shape& shape, DataType type) {
  TensorBuffer x = TensorBuffer::create_fixed_size(shape, type);
  auto* bytes = static_cast<std::uint8_t*>(x.mutable_host_bytes());
  for (std::size_t b = 0; b < x.size_bytes(); ++b) bytes[b] = static_cast<std::uint8_t>(rng());
  if (!is_floating(type)) return x;
  static const double kSpecial[] = {0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 127.5, 128.0, -128.5,
                                    255.0, 255.5, 256.0, -1.0, 32767.5, -32768.5, 65504.0,
                                    65520.0, 2147483647.0, 2147483648.0, -2147483649.0,
                                    9.2233720368547758e18, -9.2233720368547758e18, 1e-8, 3e38,
                                    std::numeric_limits<double>::infinity(),
                                    -std::numeric_limits<double>::infinity(),
                                    std::numeric_limits<double>::quiet_NaN(), 1e300};
  TensorBuffer f64 = TensorBuffer::create_fixed_size(shape, DataType::kFloat64);
  double* p = f64.mutable_host<double>();
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (std::int64_t i = 0; i < shape.num_elements(); ++i) {
    const unsigned kind = static_cast<unsigned>(rng() % 4);
    p[i] = kind == 0   ? kSpecial[rng() % std::size(kSpecial)]
           : kind == 1 ? std::ldexp(unit(rng), static_cast<int>(rng() % 80))
                       : unit(rng) * 400.0;
  }
  const TensorBuffer values = TensorBuffer::create_from(f64, type);
  // Every other element keeps its random bits.
  const std::size_t size = type_size(type);
  const auto* v = static_cast<const std::uint8_t*>(values.host_bytes());
  for (std::int64_t i = 0; i < shape.num_elements(); i += 2) {
    std::memcpy(bytes + i * size, v + i * size, size);
  }
  return x;
}

std::vector<std::uint8_t> bytes_of(const TensorBuffer& b) {
  const auto* p = static_cast<const std::uint8_t*>(b.host_bytes());
  return {p, p + b.size_bytes()};
}

// The chain driver's result on the host executor.
std::vector<std::uint8_t> driver_process(const core::ProcessPlan& plan, const TensorBuffer& x) {
  std::vector<std::uint8_t> out(static_cast<std::size_t>(plan.elements) * type_size(plan.out_type));
  kernels::HostExecutor ex;
  core::ProcessBuffers buffers;
  buffers.in = x.host_bytes();
  buffers.out = out.data();
  kernels::run_process(ex, plan, buffers);
  return out;
}

TEST(ProcessCudaDriver, CastEveryDtypePairIsTheCpusConversion) {
  std::mt19937_64 rng(11);
  for (DataType from : kTypes) {
    const TensorBuffer x = random_input(rng, {3, 67}, from);
    for (DataType to : kTypes) {
      SCOPED_TRACE(std::string(to_string(from)) + " -> " + std::string(to_string(to)));
      core::ProcessPlan plan;
      plan.in_type = from;
      plan.out_type = to;
      plan.elements = 3 * 67;
      if (from != to) plan.stages.push_back({core::ProcessStageKind::kConvert, from, to});
      EXPECT_EQ(driver_process(plan, x), bytes_of(cast(x, to)));
    }
  }
}

// A random step: normalize (scalar, or per channel of `channels`), quantize, dequantize, cast.
ProcessStep random_step(std::mt19937_64& rng, int channels) {
  std::uniform_real_distribution<float> u(-3.0f, 3.0f);
  auto nonzero = [&] {
    const float s = u(rng);
    return s == 0.0f ? 0.5f : s;
  };
  switch (rng() % 5) {
    case 0:
      return normalize_op(u(rng) * 50.0f, nonzero());
    case 1: {
      std::vector<float> means(static_cast<std::size_t>(channels));
      std::vector<float> stddevs(means.size());
      for (auto& m : means) m = u(rng) * 50.0f;
      for (auto& s : stddevs) s = nonzero();
      return normalize_op(means, stddevs);
    }
    case 2:
      return quantize_op(std::floor(u(rng) * 40.0f), std::abs(nonzero()) / 16.0f);
    case 3:
      return dequantize_op(std::floor(u(rng) * 40.0f), std::abs(nonzero()) / 16.0f);
    default:
      return cast_op(kTypes[rng() % kTypes.size()]);
  }
}

TEST(ProcessCudaDriver, RandomChainsAreTheCpuProcessorsBits) {
  std::mt19937_64 rng(5);
  // Channel counts inline in the functor (1, 3, 4) and in executor tables (5, 1500 > a block).
  for (int channels : {1, 3, 4, 5, 1500}) {
    for (int c = 0; c < 60; ++c) {
      // Up to 3 steps, and some chains longer than one launch carries (kChainStages).
      const int length = c % 10 == 9 ? 2 * kernels::kChainStages + 3 : 1 + c % 3;
      std::vector<ProcessStep> steps;
      for (int s = 0; s < length; ++s) steps.push_back(random_step(rng, channels));
      const DataType type = kTypes[rng() % kTypes.size()];
      const TensorBuffer x = random_input(rng, {2 + c % 3, channels}, type);
      SCOPED_TRACE("channels " + std::to_string(channels) + " case " + std::to_string(c));
      const core::ProcessorRun run = core::plan_processor_run(steps, x);
      const TensorBuffer cpu = Processor(steps).run(x);
      ASSERT_EQ(cpu.data_type(), run.plan.out_type);
      EXPECT_EQ(driver_process(run.plan, x), bytes_of(cpu));
    }
  }
}

TEST(ProcessCudaDriver, UInt8ImagePipelinesToFloat32AndFloat16) {
  std::mt19937_64 rng(3);
  const TensorBuffer x = random_input(rng, {5, 7, 3}, DataType::kUInt8);
  for (DataType last : {DataType::kFloat32, DataType::kFloat16, DataType::kUInt8}) {
    const std::vector<ProcessStep> steps = {
        normalize_op({127.5f, 120.0f, 110.25f}, {127.5f, 60.0f, 0.75f}), cast_op(last)};
    const core::ProcessorRun run = core::plan_processor_run(steps, x);
    EXPECT_EQ(driver_process(run.plan, x), bytes_of(Processor(steps).run(x)));
  }
}

TEST(ProcessCudaDriver, SingleOpsAreTheirOneStepChains) {
  std::mt19937_64 rng(9);
  for (DataType type : kTypes) {
    SCOPED_TRACE(to_string(type));
    const TensorBuffer x = random_input(rng, {4, 6}, type);
    auto check = [&](const ProcessStep& step, const TensorBuffer& single) {
      const core::ProcessorRun run = core::plan_processor_run({step}, x);
      EXPECT_EQ(driver_process(run.plan, x), bytes_of(single)) << step.name();
    };
    check(normalize_op(3.5f, -0.25f), normalize(x, 3.5f, -0.25f));
    const std::vector<float> means = {1, 2, 3, 4, 5, 6};
    const std::vector<float> stddevs = {0.5f, 3, -7, 1e-3f, 9, 11};
    check(normalize_op(means, stddevs), normalize(x, means, stddevs));
    check(quantize_op(12.0f, 0.125f), quantize(x, 12.0f, 0.125f));
    check(dequantize_op(-3.0f, 0.3f), dequantize(x, -3.0f, 0.3f));
  }
}

TEST(ProcessCudaDriver, EmptyInputAndTheAllIdentityCopy) {
  kernels::HostExecutor ex;
  core::ProcessPlan plan;
  plan.in_type = plan.out_type = DataType::kInt16;
  plan.elements = 3;
  const std::int16_t in[3] = {1, -2, 3};
  std::int16_t out[3] = {};
  kernels::run_process(ex, plan, {in, out});
  EXPECT_EQ(std::vector<std::int16_t>(out, out + 3), (std::vector<std::int16_t>{1, -2, 3}));
  plan.elements = 0;
  plan.stages.push_back({core::ProcessStageKind::kConvert, DataType::kInt16, DataType::kUInt8});
  kernels::run_process(ex, plan, {nullptr, nullptr});  // nothing read or written
}

// quantize_linear / dequantize_linear: the driver against the CPU op on the op's own plan.
TensorBuffer scalar_or_vector(DataType type, const std::vector<double>& values, bool scalar) {
  TensorBuffer f64 = TensorBuffer::create_fixed_size(
      scalar ? Shape{} : Shape{static_cast<std::int64_t>(values.size())}, DataType::kFloat64);
  std::copy(values.begin(), values.end(), f64.mutable_host<double>());
  return TensorBuffer::create_from(f64, type);
}

std::vector<std::uint8_t> driver_linear(bool quantize, const core::LinearPlan& plan,
                                        const TensorBuffer& x) {
  std::vector<std::uint8_t> out(static_cast<std::size_t>(plan.elements) * type_size(plan.y_type));
  kernels::HostExecutor ex;
  core::LinearBuffers buffers;
  buffers.x = x.host_bytes();
  buffers.y = out.data();
  if (quantize) {
    kernels::run_quantize_linear(ex, plan, buffers);
  } else {
    kernels::run_dequantize_linear(ex, plan, buffers);
  }
  return out;
}

TEST(QuantizeLinearCudaDriver, EveryInputAndOutputDtypePerTensorAndPerAxis) {
  std::mt19937_64 rng(21);
  const DataType inputs[] = {DataType::kFloat32, DataType::kFloat16, DataType::kBFloat16,
                             DataType::kFloat64, DataType::kInt32};
  const DataType outputs[] = {DataType::kUInt8, DataType::kInt8, DataType::kInt16};
  for (DataType xt : inputs) {
    for (DataType zt : outputs) {
      for (int axis : {-1, 0, 1}) {  // -1 with one element: per tensor
        SCOPED_TRACE(std::string(to_string(xt)) + " -> " + std::string(to_string(zt)) +
                     " axis " + std::to_string(axis));
        const TensorBuffer x = random_input(rng, {3, 5, 2}, xt);
        const std::size_t k = axis == -1 ? 1 : (axis == 0 ? 3 : 5);
        std::vector<double> scale(k);
        std::vector<double> zero(k);
        for (std::size_t c = 0; c < k; ++c) {
          // Powers of two keep x's ties (2.5 / 1) to test round-half-even.
          const double mantissa =
              rng() % 2 ? 1.0 : 1.0 + static_cast<double>(rng() % 1000) / 997.0;
          scale[c] = std::ldexp(mantissa, static_cast<int>(rng() % 8) - 4);
          zero[c] = static_cast<double>(static_cast<int>(rng() % 200) - 60);
        }
        QuantizeLinearOptions options;
        options.axis = axis == -1 ? 1 : axis;
        const TensorBuffer s = scalar_or_vector(DataType::kFloat32, scale, axis == -1);
        const TensorBuffer z = scalar_or_vector(zt, zero, axis == -1);
        const core::LinearPlan plan = core::plan_quantize_linear(x, s, z, options);
        EXPECT_EQ(driver_linear(true, plan, x), bytes_of(quantize_linear(x, s, z, options)));
        // dequantize_linear of the quantized values (x of zt), and of int32 with zero points 0.
        const TensorBuffer q = random_input(rng, {3, 5, 2}, zt);
        const core::LinearPlan back = core::plan_dequantize_linear(q, s, z, options);
        EXPECT_EQ(driver_linear(false, back, q), bytes_of(dequantize_linear(q, s, z, options)));
      }
    }
  }
  const TensorBuffer x32 = random_input(rng, {4, 3}, DataType::kInt32);
  const TensorBuffer s = scalar_or_vector(DataType::kFloat32, {0.5, 0.25, 3.0}, false);
  const TensorBuffer z = scalar_or_vector(DataType::kInt32, {0, 0, 0}, false);
  const core::LinearPlan plan = core::plan_dequantize_linear(x32, s, z, {});
  EXPECT_EQ(driver_linear(false, plan, x32), bytes_of(dequantize_linear(x32, s, z)));
}

// On a GPU: the ops on CUDA against the CPU, bit for bit.
TEST(ProcessingCudaOps, EqualTheCpuResults) {
  TENSORBUF_SKIP_WITHOUT_CUDA(Device::cuda(0));
  std::mt19937_64 rng(2);
  ProcessOptions gpu;
  gpu.device = Device::cuda(0);
  for (DataType from : kTypes) {
    const TensorBuffer x = random_input(rng, {6, 3}, from);
    for (DataType to : kTypes) EXPECT_EQ(bytes_of(cast(x, to, gpu)), bytes_of(cast(x, to)));
    EXPECT_EQ(bytes_of(normalize(x, {1, 2, 3}, {3, 0.5f, -2}, gpu)),
              bytes_of(normalize(x, {1, 2, 3}, {3, 0.5f, -2})));
    const Processor p({normalize_op(-1.5f, 3.0f), cast_op(DataType::kFloat16),
                       dequantize_op(2.0f, 0.25f), cast_op(DataType::kInt8)});
    EXPECT_EQ(bytes_of(p.run(x, gpu)), bytes_of(p.run(x)));
  }
  const TensorBuffer x = random_input(rng, {4, 3}, DataType::kFloat32);
  const TensorBuffer s = scalar_or_vector(DataType::kFloat32, {0.5, 0.25, 3.0}, false);
  const TensorBuffer z = scalar_or_vector(DataType::kInt8, {0, -3, 7}, false);
  QuantizeLinearOptions options;
  options.device = Device::cuda(0);
  const TensorBuffer q = quantize_linear(x, s, z, options);
  EXPECT_TRUE(q.is_valid_on(Device::cuda(0)));
  EXPECT_EQ(bytes_of(q), bytes_of(quantize_linear(x, s, z)));
  EXPECT_EQ(bytes_of(dequantize_linear(q, s, z, options)), bytes_of(dequantize_linear(q, s, z)));
}

}  // namespace
}  // namespace tensorbuf
