// normalize, quantize, dequantize, cast (TFLite Support's NormalizeOp and siblings): the
// constructor rules and the channel check here, once; the arithmetic runs on the host
// (docs/processing.md: no CUDA kernel yet, a CUDA result is computed on the host and synced).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/buffer_access.hpp"
#include "core/dispatch.hpp"
#include "core/parallel.hpp"
#include "core/processing_rules.hpp"
#include "tensorbuf/processing.hpp"

namespace tensorbuf {
namespace {

// Leaves the result valid on the requested device (the host computed it).
TensorBuffer place(TensorBuffer out, Device device) {
  if (device.kind == Device::Kind::kCuda) out.sync_to(device);
  return out;
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
  const std::int64_t n = shape.num_elements();
  // Fixed-size uint8 and float32 (images, the common case): one pass from x. float32 of uint8
  // is exact, so this equals the conversion below.
  if (!x.is_dynamic() && x.data_type() == DataType::kUInt8) {
    TensorBuffer out = TensorBuffer::create_uninitialized(shape, DataType::kFloat32);
    normalize_rows(x.host<std::uint8_t>(), out.overwrite_host<float>(), n, mean, stddev);
    return place(std::move(out), device);
  }
  if (!x.is_dynamic() && x.data_type() == DataType::kFloat32) {
    TensorBuffer out = TensorBuffer::create_uninitialized(shape, DataType::kFloat32);
    normalize_rows(x.host<float>(), out.overwrite_host<float>(), n, mean, stddev);
    return place(std::move(out), device);
  }
  // float32(x) by tensor_buffer.md's conversion, keeping dynamic-ness; then in place.
  TensorBuffer out = TensorBuffer::create_from(x, DataType::kFloat32);
  float* y = out.mutable_host<float>();
  normalize_rows(static_cast<const float*>(y), y, n, mean, stddev);
  return place(std::move(out), device);
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
  return place(TensorBuffer::create_from(x, type), device);
}

}  // namespace tensorbuf
