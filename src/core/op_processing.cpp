// normalize, quantize, dequantize, cast (TFLite Support's NormalizeOp and siblings): the
// constructor rules and the channel check here, once. On the host the loops below (and the
// Processor's backend for a cast of an 8-bit x); on CUDA the fused Processor's chain of one step
// (core/process_execute.hpp), bit-equal to them.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/buffer_access.hpp"
#include "core/dispatch.hpp"
#include "core/parallel.hpp"
#include "core/process_execute.hpp"
#include "core/processing_plan.hpp"
#include "core/processing_rules.hpp"
#include "tensorbuf/processing.hpp"

namespace tensorbuf {
namespace {

// The normalization as a chain for the CUDA backend: float32(x) by tensor_buffer.md's
// conversion unless x is uint8 or float32 (the stage reads those exactly), then the stage.
core::ProcessPlan normalize_plan(const TensorBuffer& x, const core::Normalization& norm) {
  core::ProcessPlan plan;
  plan.in_type = x.data_type();
  plan.out_type = DataType::kFloat32;
  plan.elements = core::BufferAccess::shape(x).num_elements();
  DataType from = plan.in_type;
  if (from != DataType::kUInt8 && from != DataType::kFloat32) {
    plan.stages.push_back({core::ProcessStageKind::kConvert, from, DataType::kFloat32});
    from = DataType::kFloat32;
  }
  core::ProcessStage stage{core::ProcessStageKind::kNormalize, from, DataType::kFloat32};
  stage.means = norm.means.data();
  stage.stddevs = norm.stddevs.data();
  stage.channels = static_cast<std::int64_t>(norm.means.size());
  stage.period = stage.channels;  // not repeated: the CPU backend wraps, CUDA indexes
  plan.stages.push_back(stage);
  return plan;
}

// y[i] = (float32(x[i]) - mean[i % C]) / stddev[i % C] in float32, over whole rows of C (the
// caller checked that C divides the size); x may be y (in place). Division, not a reciprocal
// product: Java's rounding. One pass: read, convert, write.
template <class In>
void normalize_rows(const In* x, float* y, std::int64_t n, const std::vector<float>& mean,
                    const std::vector<float>& stddev) {
  const auto channels = static_cast<std::int64_t>(mean.size());
  const float* m = mean.data();
  const float* s = stddev.data();
  const std::int64_t rows = n / channels;
  // ~0.5 ns per element on one core.
  const std::int64_t min_rows = std::max<std::int64_t>(1, 20000 / channels);
  core::parallel_for_chunks(rows, min_rows, [&](int, std::int64_t begin, std::int64_t end) {
    if (channels == 1) {
      const float m0 = m[0];
      const float s0 = s[0];
      for (std::int64_t i = begin; i < end; ++i) y[i] = (static_cast<float>(x[i]) - m0) / s0;
      return;
    }
    for (std::int64_t r = begin; r < end; ++r) {
      const In* in = x + r * channels;
      float* row = y + r * channels;
      for (std::int64_t c = 0; c < channels; ++c) {
        row[c] = (static_cast<float>(in[c]) - m[c]) / s[c];
      }
    }
  });
}

// Applies a validated normalization (not the identity).
TensorBuffer apply(const TensorBuffer& x, const core::Normalization& norm,
                   const ProcessOptions& options) {
  const std::vector<float>& mean = norm.means;
  const std::vector<float>& stddev = norm.stddevs;
  const Device device = core::resolve_device(options.device, x);
  const Shape& shape = core::BufferAccess::shape(x);
  core::check_channels(static_cast<std::int64_t>(mean.size()), shape, "normalize");
  if (device.is_cuda())
    return core::process_new(normalize_plan(x, norm), x, device, options.stream);
  const std::int64_t n = shape.num_elements();
  // Fixed-size uint8 and float32 (images, the common case): one pass from x. float32 of uint8
  // is exact, so this equals the conversion below.
  if (!x.is_dynamic() && x.data_type() == DataType::kUInt8) {
    TensorBuffer out = TensorBuffer::create_uninitialized(shape, DataType::kFloat32);
    normalize_rows(x.host<std::uint8_t>(), out.overwrite_host<float>(), n, mean, stddev);
    return out;
  }
  if (!x.is_dynamic() && x.data_type() == DataType::kFloat32) {
    TensorBuffer out = TensorBuffer::create_uninitialized(shape, DataType::kFloat32);
    normalize_rows(x.host<float>(), out.overwrite_host<float>(), n, mean, stddev);
    return out;
  }
  // float32(x) by tensor_buffer.md's conversion, keeping dynamic-ness; then in place.
  TensorBuffer out = TensorBuffer::create_from(x, DataType::kFloat32);
  float* y = out.mutable_host<float>();
  normalize_rows(static_cast<const float*>(y), y, n, mean, stddev);
  return out;
}

TensorBuffer identity(const TensorBuffer& x) { return core::BufferAccess::share(x); }

TensorBuffer normalize_with(const TensorBuffer& x, const core::Normalization& norm,
                            const ProcessOptions& options) {
  return norm.identity ? identity(x) : apply(x, norm, options);
}

}  // namespace

// The constructor rules are core/processing_rules.cpp's, shared with the Processor's steps.
TensorBuffer normalize(const TensorBuffer& x, float mean, float stddev,
                       const ProcessOptions& options) {
  return normalize_with(x, core::scalar_normalization(mean, stddev), options);
}

TensorBuffer normalize(const TensorBuffer& x, const std::vector<float>& means,
                       const std::vector<float>& stddevs, const ProcessOptions& options) {
  return normalize_with(x, core::channel_normalization(means, stddevs), options);
}

TensorBuffer quantize(const TensorBuffer& x, float zero_point, float scale,
                      const ProcessOptions& options) {
  return normalize_with(x, core::quantize_normalization(zero_point, scale), options);
}

TensorBuffer dequantize(const TensorBuffer& x, float zero_point, float scale,
                        const ProcessOptions& options) {
  return normalize_with(x, core::dequantize_normalization(zero_point, scale), options);
}

TensorBuffer cast(const TensorBuffer& x, DataType type, const ProcessOptions& options) {
  if (type == x.data_type()) return identity(x);
  const Device device = core::resolve_device(options.device, x);
  // On the CPU an 8-bit x goes through the Processor's backend too, which runs a conversion
  // that is slow element by element as a table of its 256 results (src/cpu/processing.cpp).
  const DataType from = x.data_type();
  const bool byte_input =
      from == DataType::kUInt8 || from == DataType::kInt8 || from == DataType::kBool;
  if (!device.is_cuda() && !byte_input) return TensorBuffer::create_from(x, type);
  core::ProcessPlan plan;
  plan.in_type = x.data_type();
  plan.out_type = type;
  plan.elements = core::BufferAccess::shape(x).num_elements();
  plan.stages.push_back({core::ProcessStageKind::kConvert, plan.in_type, type});
  return core::process_new(plan, x, device, options.stream);
}

}  // namespace tensorbuf
