// The rules of TFLite Support's NormalizeOp, QuantizeOp and DequantizeOp constructors and the
// channel check of NormalizeOp.apply, once: the single ops (op_processing.cpp) and the fused
// Processor's steps (processor.cpp) both go through these, so they raise the same errors.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

// A validated normalization y = (float32(x) - means[c]) / stddevs[c], c = i % means.size().
struct Normalization {
  std::vector<float> means;
  std::vector<float> stddevs;
  bool identity = false;  // all means 0 and all stddevs 1: x itself, before any channel check
};

// Scalar form (spec 1 rule 1): mean 0 with stddev 0 or +-inf is the identity; any other zero
// stddev is InvalidArgumentError("normalize: stddev cannot be zero").
Normalization scalar_normalization(float mean, float stddev);
// Array form (spec 1 rule 2): equal non-zero lengths, no zero stddev, no 0/inf bypass.
Normalization channel_normalization(const std::vector<float>& means,
                                    const std::vector<float>& stddevs);
// QuantizeOp: the scalar form of (-zero_point * scale, scale), the product rounded to float32.
Normalization quantize_normalization(float zero_point, float scale);
// DequantizeOp: the scalar form of (zero_point, 1 / scale), the quotient rounded to float32.
Normalization dequantize_normalization(float zero_point, float scale);

// Spec 1 rule 4 (check_channels' condition, for callers that name the step only on failure).
bool channels_fit(std::int64_t channels, const Shape& shape);

// Spec 1 rule 4: one channel, or a last axis of `channels` elements; else InvalidArgumentError
// "<op>: C means (stddevs) for a last axis of shape S: ...". `op` names the caller
// ("normalize", or a Processor step).
void check_channels(std::int64_t channels, const Shape& shape, std::string_view op);

}  // namespace tensorbuf::core
