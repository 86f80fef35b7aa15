#include "core/processing_rules.hpp"

#include <cmath>

#include "core/error_macros.hpp"

namespace tensorbuf::core {

Normalization scalar_normalization(float mean, float stddev) {
  // NormalizeOp(float, float): unpopulated metadata (0, 0) or (0, inf) is the identity.
  if (mean == 0.0f && (stddev == 0.0f || std::isinf(stddev))) stddev = 1.0f;
  TENSORBUF_EXPECTS(stddev != 0.0f, InvalidArgumentError, "normalize: stddev cannot be zero");
  return {{mean}, {stddev}, mean == 0.0f && stddev == 1.0f};
}

Normalization channel_normalization(const std::vector<float>& means,
                                    const std::vector<float>& stddevs) {
  TENSORBUF_EXPECTS(means.size() == stddevs.size(), InvalidArgumentError,
                    str_cat("normalize: per-channel normalization requires as many means "
                            "as stddevs (",
                            means.size(), " means, ", stddevs.size(), " stddevs)"));
  TENSORBUF_EXPECTS(!means.empty(), InvalidArgumentError, "normalize: means and stddevs are empty");
  bool identity = true;
  for (std::size_t c = 0; c < means.size(); ++c) {
    TENSORBUF_EXPECTS(stddevs[c] != 0.0f, InvalidArgumentError,
                      str_cat("normalize: stddev cannot be zero (channel ", c, ")"));
    if (stddevs[c] != 1.0f || means[c] != 0.0f) identity = false;
  }
  return {means, stddevs, identity};
}

Normalization quantize_normalization(float zero_point, float scale) {
  const float mean = -zero_point * scale;  // Java: super(-zeroPoint * scale, scale)
  return scalar_normalization(mean, scale);
}

Normalization dequantize_normalization(float zero_point, float scale) {
  const float stddev = 1.0f / scale;  // Java: super(zeroPoint, 1 / scale)
  return scalar_normalization(zero_point, stddev);
}

bool channels_fit(std::int64_t channels, const Shape& shape) {
  return channels == 1 || (shape.rank() != 0 && shape[shape.rank() - 1] == channels);
}

void check_channels(std::int64_t channels, const Shape& shape, std::string_view op) {
  TENSORBUF_EXPECTS(
      channels_fit(channels, shape), InvalidArgumentError,
      str_cat(op, ": ", channels, " means (stddevs) for a last axis of shape ", shape.to_string(),
              ": the number of channels must equal the size of the last axis"));
}

}  // namespace tensorbuf::core
