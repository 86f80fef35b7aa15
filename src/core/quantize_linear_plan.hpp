// quantize_linear / dequantize_linear's plan: the validated parameters (core/op_quantize_linear.cpp)
// and how a flat index maps to its channel, (i / inner) % channels. Plain data only.
#pragma once

#include <cstdint>
#include <vector>

#include "tensorbuf/quantize_linear.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

struct LinearPlan {
  // One entry per channel (one per tensor): the exact float32 values of scale (float64 for a
  // float64 x in quantize_linear) and the zero point's values.
  std::vector<double> scale;
  std::vector<double> zero_point;
  std::int64_t inner = 1;
  std::int64_t channels = 1;
  std::int64_t elements = 0;
  DataType x_type = DataType::kFloat32;
  DataType y_type = DataType::kFloat32;  // quantize: the zero point's dtype; dequantize: float32
};

struct LinearBuffers {
  const void* x = nullptr;
  void* y = nullptr;
};

// Every check of the op (InvalidArgumentError; UnavailableError for parameters only on the
// device while the stream is captured), and the plan; nothing is written. The CPU and CUDA runs
// (and the tests of the CUDA driver) start from these.
LinearPlan plan_quantize_linear(const TensorBuffer& x, const TensorBuffer& scale,
                                const TensorBuffer& zero_point,
                                const QuantizeLinearOptions& options);
LinearPlan plan_dequantize_linear(const TensorBuffer& x, const TensorBuffer& scale,
                                  const TensorBuffer& zero_point,
                                  const QuantizeLinearOptions& options);

}  // namespace tensorbuf::core
