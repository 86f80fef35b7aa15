// quantize_linear / dequantize_linear (spec/processing.md 5) over an executor: src/cuda runs
// them with the CUDA executor, tests with the host executor (bit-equal to the CPU's loops in
// core/op_quantize_linear.cpp). x's dtype is a run-time value (convert_value.hpp); the
// arithmetic type is a template (float, or double for a float64 x): two instantiations.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/quantize_linear_plan.hpp"
#include "kernels/config.hpp"
#include "kernels/convert_value.hpp"
#include "kernels/store_table.hpp"

namespace tensorbuf::kernels {

// The channel's scale and zero point: inline for one per tensor, else executor-side tables.
template <class Real>
struct LinearParams {
  const Real* scales = nullptr;
  const Real* zeros = nullptr;
  Real scale = 1;
  Real zero = 0;
  std::int64_t inner = 1;
  std::int64_t channels = 1;

  TENSORBUF_HOST_DEVICE void at(std::int64_t i, Real& s, Real& z) const {
    if (channels == 1) {
      s = scale;
      z = zero;
      return;
    }
    std::int64_t outer = 0;
    std::int64_t rest = 0;
    divide(i, inner, outer, rest);
    std::int64_t c = 0;
    divide(outer, channels, rest, c);
    s = scales[c];
    z = zeros[c];
  }
};

TENSORBUF_HOST_DEVICE inline float round_half_even(float v) { return ::rintf(v); }
TENSORBUF_HOST_DEVICE inline double round_half_even(double v) { return ::rint(v); }

// y = saturate(round_half_even(Real(x) / s) + z); NaN gives z.
template <class Real>
struct QuantizeLinearFunctor {
  const void* x;
  DataType x_type;
  void* y;
  DataType y_type;
  LinearParams<Real> params;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t i) const {
    const Value v = load_value(x, x_type, i);
    // Real(x) by tensor_buffer.md's conversion (exact for the 16-bit floats).
    Real r;
    if constexpr (sizeof(Real) == 8) {
      r = v.floating ? v.f : static_cast<double>(v.i);
    } else {
      r = to_float(v);
    }
    Real s;
    Real z;
    params.at(i, s, z);
    const Real q = round_half_even(r / s) + z;
    // Integral (or +-inf) and saturated by the store, as the CPU's clamp.
    store_value(y, y_type, i, floating_value(q != q ? static_cast<double>(z) : static_cast<double>(q)));
  }
};

// y = (float32(x) - float32(z)) * s in float32.
struct DequantizeLinearFunctor {
  const void* x;
  DataType x_type;
  float* y;
  LinearParams<float> params;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t i) const {
    float s;
    float z;
    params.at(i, s, z);
    y[i] = (to_float(load_value(x, x_type, i)) - z) * s;
  }
};

template <class Real, class Executor>
LinearParams<Real> linear_params(Executor& ex, const core::LinearPlan& plan) {
  LinearParams<Real> p;
  p.inner = plan.inner;
  p.channels = plan.channels;
  const std::vector<Real> scale(plan.scale.begin(), plan.scale.end());
  const std::vector<Real> zero(plan.zero_point.begin(), plan.zero_point.end());
  if (plan.channels == 1) {
    p.scale = scale[0];
    p.zero = zero[0];
  } else {
    p.scales = store_table(ex, scale.data(), plan.channels);
    p.zeros = store_table(ex, zero.data(), plan.channels);
  }
  return p;
}

template <class Executor>
void run_quantize_linear(Executor& ex, const core::LinearPlan& plan,
                         const core::LinearBuffers& buffers) {
  if (plan.elements <= 0) return;
  if (plan.x_type == DataType::kFloat64) {
    ex.for_each_index(plan.elements,
                      QuantizeLinearFunctor<double>{buffers.x, plan.x_type, buffers.y, plan.y_type,
                                                    linear_params<double>(ex, plan)});
  } else {
    ex.for_each_index(plan.elements,
                      QuantizeLinearFunctor<float>{buffers.x, plan.x_type, buffers.y, plan.y_type,
                                                   linear_params<float>(ex, plan)});
  }
}

template <class Executor>
void run_dequantize_linear(Executor& ex, const core::LinearPlan& plan,
                           const core::LinearBuffers& buffers) {
  if (plan.elements <= 0) return;
  ex.for_each_index(plan.elements,
                    DequantizeLinearFunctor{buffers.x, plan.x_type, static_cast<float*>(buffers.y),
                                            linear_params<float>(ex, plan)});
}

}  // namespace tensorbuf::kernels
